"""Canonical forms under rules: the group each rule set keeps, and forms and ids under it.

On 4x4 and 6x6 the whole Sudoku group of the shape is enumerated (``canon_oracle.line_orders``)
and every element that keeps the rules, by a check written here from the geometry alone, must
be in the group sudokit uses, and no other. On 9x9 the tests check what defines the canonical
form: every image under the group gives the same form and id, the returned transform produces
it, and the rules are part of the id.
"""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sudokit import Grid, Shape, Transform, canonical, canonical_id, random_grid, unique_solution
from sudokit._canon_maps import rules_group as _group
from sudokit.canon import canonical_ids, canonical_many, random_isomorph
from sudokit.errors import InvalidRulesError
from sudokit.rules import Rules, geometry

from canon_oracle import line_orders

SUDOKU = Shape(3, 3)
JIGSAW9 = "111222333111222333114522333144552666444555666444555966777888996777888999777888999"
JIGSAW4 = "1112122233343444"
RULE_SETS = [
    "x",
    "windoku",
    "dg",
    "antiknight",
    "antiking",
    "nc",
    "x+windoku",
    "antiknight+x",
    "antiking+nc",
    "dg+x",
    "jigsaw:" + JIGSAW9,
    "jigsaw:" + JIGSAW9 + "+x",
]


def _keeps_rules(shape: Shape, rules: Rules, t: Transform) -> bool:
    """Whether the cell map of ``t`` sends the rules' houses onto houses, neighbour pairs onto
    neighbour pairs and related pairs onto related pairs (a jigsaw's regions aside)."""
    geo = geometry(shape, rules)
    n = shape.n
    where = [t.map_cell(c) for c in range(n * n)]
    skip = range(2 * n, 3 * n) if rules.regions is not None else range(0)
    houses = {frozenset(h) for k, h in enumerate(geo.houses) if k not in skip}
    if {frozenset(where[c] for c in h) for h in houses} != houses:
        return False
    for pairs in (geo.neighbours, geo.related):
        edges = {frozenset((c, p)) for c in range(n * n) for p in pairs[c]}
        if {frozenset(where[c] for c in e) for e in edges} != edges:
            return False
    return True


def _whole_group(shape: Shape) -> list[Transform]:
    ident = tuple(range(shape.n + 1))
    out = []
    for transpose in (False, True) if shape.box_rows == shape.box_cols else (False,):
        for rows in line_orders(shape.box_cols, shape.box_rows):
            for cols in line_orders(shape.box_rows, shape.box_cols):
                out.append(Transform(shape, transpose, rows, cols, ident))
    return out


SMALL_RULES = [
    (Shape(2, 2), r)
    for r in ["x", "windoku", "dg", "antiknight", "antiking", "nc", "x+windoku", "x+nc"]
] + [(Shape(2, 3), r) for r in ["x", "dg", "antiknight", "antiking", "nc", "x+dg"]]


@pytest.mark.parametrize(("shape", "text"), SMALL_RULES, ids=lambda v: str(v))
def test_group_is_exactly_the_stabiliser_on_small_shapes(shape: Shape, text: str) -> None:
    rules = Rules(text)
    kept = {
        (t.transpose, t.rows, t.cols) for t in _whole_group(shape) if _keeps_rules(shape, rules, t)
    }
    group = _group(shape, rules.extras, False)
    assert group.members == kept
    assert len(group.elements) == len(kept)


def test_jigsaw_group_is_the_square_maps_that_keep_the_extras() -> None:
    shape = Shape(2, 2)
    mirror = (3, 2, 1, 0)
    ident = (0, 1, 2, 3)
    square = {(t, r, c) for t in (False, True) for r in (ident, mirror) for c in (ident, mirror)}
    assert _group(shape, (), True).members == square
    assert _group(shape, ("x",), True).members == square  # the square's maps keep diagonals


def test_group_sizes_on_9x9() -> None:
    sizes = {
        text: len(_group(SUDOKU, Rules(text).extras, False).elements) for text in RULE_SETS[:9]
    }
    # x: rows commuting with the mirror (2 * 2 * 3!), columns the same or mirrored, transposed
    # or not; windoku: rows 2-3, 7-8 swapped or not and the mirror, each axis, transposed or
    # not; dg: bands, stacks, one order of rows for every band, one of columns, transposition.
    assert sizes == {
        "x": 24 * 2 * 2,
        "windoku": 8 * 8 * 2,
        "dg": 6 * 6 * 6 * 6 * 2,
        "antiknight": 8,
        "antiking": 8,
        "nc": 8,
        "x+windoku": 16,
        "antiknight+x": 8,
        "antiking+nc": 8,
    }


def _puzzle(text: str, seed: int, keep: float = 0.4) -> Grid:
    rules = Rules(text)
    full = random_grid(SUDOKU, rules=rules, seed=seed)
    rng = random.Random(seed)
    cells = bytes(d if rng.random() < keep else 0 for d in full.cells)
    return Grid.unchecked(SUDOKU, cells, rules=rules)


def _random_element(grid: Grid, rng: random.Random) -> Transform:
    group = _group(grid.shape, grid.rules.extras, grid.rules.regions is not None)
    transpose, rows, cols, _ = rng.choice(group.elements)
    n = grid.shape.n
    if group.relabel:
        labels = list(range(1, n + 1))
        rng.shuffle(labels)
        digits = (0, *labels)
    else:
        digits = rng.choice([tuple(range(n + 1)), (0, *range(n, 0, -1))])
    return Transform(grid.shape, transpose, rows, cols, digits)


@pytest.mark.parametrize("text", RULE_SETS)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_images_under_the_group_share_form_and_id(text: str, seed: int) -> None:
    p = _puzzle(text, seed % 50 + 1)
    rng = random.Random(seed)
    t = _random_element(p, rng)
    q = t.apply(p)
    assert q.rules.extras == p.rules.extras
    c, d = canonical(p), canonical(q)
    assert c.grid == d.grid and c.grid.rules == d.grid.rules
    assert c.transform.apply(p) == c.grid and d.transform.apply(q) == d.grid
    assert canonical_id(p) == canonical_id(q)
    assert c.automorphisms == d.automorphisms >= 1


@pytest.mark.parametrize("text", ["x", "windoku", "dg", "antiknight", "antiking", "nc"])
def test_maps_outside_the_group_change_the_id(text: str) -> None:
    p = _puzzle(text, 3, keep=0.5)
    rng = random.Random(5)
    group = _group(SUDOKU, p.rules.extras, False)
    plain = Grid.unchecked(SUDOKU, p.cells)
    changed = 0
    for _ in range(20):
        t = Transform.random(SUDOKU, rng)
        if (t.transpose, t.rows, t.cols) in group.members:
            continue
        image = t.apply(plain).cells
        try:
            q = Grid(Grid.unchecked(SUDOKU, image).to_line(), rules=p.rules)
        except Exception:  # the image breaks the rules: another puzzle, no id to compare
            changed += 1
            continue
        changed += canonical_id(q) != canonical_id(p)
    assert changed >= 18


def test_classic_ids_unchanged_and_rules_in_the_id() -> None:
    p = _puzzle("x+antiking", 7)
    plain = Grid.unchecked(SUDOKU, p.cells)
    assert canonical_id(Grid("." * 81)) == "9x9-bminwzkx4qj7nqfgawpb4wrvc4"
    ids = {canonical_id(Grid(plain.to_line(), rules=r)) for r in ["classic", "x", "x+antiking"]}
    assert len(ids) == 3
    assert canonical_id(Grid(plain.to_line(), rules="x")).startswith("9x9-x-")
    assert canonical_id(Grid(plain.to_line(), rules="x+antiking")).startswith("9x9-x.antiking-")
    j = _puzzle("jigsaw:" + JIGSAW9 + "+x", 2)
    assert canonical_id(j).startswith("9x9-jigsaw.x-")


def test_nc_keeps_digit_order() -> None:
    # Under nc only reversal of the digits is allowed: 1 and 2 next to each other is no
    # relabelling of 1 and 3 next to each other.
    shape = Shape(2, 2)
    a = Grid("13" + "." * 14, rules="nc")
    b = Grid("14" + "." * 14, rules="nc")
    c = Grid("42" + "." * 14, rules="nc")  # 4 2 is 1 3 reversed
    assert canonical_id(a) != canonical_id(b)
    assert canonical_id(a) == canonical_id(c)
    assert canonical(a).grid.shape == shape
    with pytest.raises(ValueError, match="nc"):
        Transform(shape, False, (0, 1, 2, 3), (0, 1, 2, 3), (0, 2, 1, 3, 4)).apply(a)


def test_transform_outside_the_group_is_refused() -> None:
    p = Grid("1" + "." * 15, rules="x")
    swap = Transform(Shape(2, 2), False, (1, 0, 2, 3), (0, 1, 2, 3), (0, 1, 2, 3, 4))
    with pytest.raises(ValueError, match="does not keep the rules 'x'"):
        swap.apply(p)


def test_jigsaw_layout_moves_with_the_clues() -> None:
    p = Grid("1" + "." * 15, rules="jigsaw:" + JIGSAW4)
    turn = Transform(Shape(2, 2), True, (3, 2, 1, 0), (0, 1, 2, 3), (0, 1, 2, 3, 4))
    q = turn.apply(p)
    assert q.rules != p.rules and q.rules.regions is not None
    assert canonical_id(q) == canonical_id(p)
    assert canonical(q).grid == canonical(p).grid
    other = Grid("1" + "." * 15, rules="jigsaw:1122112233443344")
    assert canonical_id(other) != canonical_id(p)


def test_automorphisms_of_empty_grids() -> None:
    # the group's order: geometric maps times digit maps
    assert canonical(Grid.empty(SUDOKU, rules="x")).automorphisms == 96 * math.factorial(9)
    assert canonical(Grid.empty(SUDOKU, rules="nc")).automorphisms == 8 * 2
    assert canonical(Grid.empty(SUDOKU, rules="jigsaw:" + JIGSAW9)).automorphisms == math.factorial(
        9
    )


def test_batches_agree_with_single_calls() -> None:
    ps = [_puzzle("windoku", s) for s in range(1, 5)]
    assert canonical_many(ps) == [canonical(p).grid for p in ps]
    assert canonical_ids(ps) == [canonical_id(p) for p in ps]


@pytest.mark.parametrize("text", RULE_SETS)
def test_random_isomorph_keeps_rules_symmetry_and_form(text: str) -> None:
    p = _puzzle(text, 11)
    for seed in range(5):
        t, q = random_isomorph(p, random.Random(seed))
        assert t.apply(p) == q
        assert canonical_id(q) == canonical_id(p)


def test_unique_puzzles_stay_unique() -> None:
    p = _puzzle("x", 4, keep=0.6)
    q = _random_element(p, random.Random(2)).apply(p)
    assert (unique_solution(p) is None) == (unique_solution(q) is None)


def test_bad_rules_for_the_shape_are_refused() -> None:
    with pytest.raises(InvalidRulesError):
        Grid.empty(Shape(2, 3), rules="windoku")
