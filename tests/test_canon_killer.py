"""Canonical forms of killer grids: the cage layout moves with the cells under the geometric
maps that keep the rules and leave every cage connected; the digits are never relabelled
(the sums would change). Ids name the rules (``9x9-killer-...``)."""

from __future__ import annotations

import random

import pytest

from killer_grids import solo_killers
from killer_oracle import random_layout
from sudokit import Grid, Rules, Shape, canonical, canonical_id, random_grid, solve
from sudokit.cages import Cage, Cages
from sudokit.canon import Transform, ids_of_canonical, random_isomorph

MIRROR = tuple(range(8, -1, -1))
IDENT = tuple(range(9))
DIGITS = tuple(range(10))


def _square_maps() -> list[Transform]:
    """The eight maps of the square: they keep every cage connected."""
    return [
        Transform(Shape(3, 3), t, rows, cols, DIGITS)
        for t in (False, True)
        for rows in (IDENT, MIRROR)
        for cols in (IDENT, MIRROR)
    ]


def _cut(grid: Grid, solution: bytes) -> Grid:
    """``grid`` with its cages cut along the band and stack lines (sums from ``solution``):
    many more maps keep such a layout (bands, stacks, lines in them)."""
    cages = grid.rules.cages
    assert cages is not None
    made = []
    for cage in cages:
        parts: dict[tuple[int, int], list[int]] = {}
        for c in cage.cells:
            parts.setdefault((c // 27, c % 9 // 3), []).append(c)
        for cells in parts.values():
            todo, seen = [cells[0]], {cells[0]}
            while todo:  # split each part into its connected pieces
                x = todo.pop()
                for y in (x - 9, x + 9, x - 1, x + 1):
                    if y in cells and y not in seen and (abs(y - x) == 9 or y // 9 == x // 9):
                        seen.add(y)
                        todo.append(y)
            for piece in (sorted(seen), sorted(set(cells) - seen)):
                if piece:
                    made.append(Cage(tuple(piece), sum(solution[c] for c in piece)))
    return Grid.from_cells(grid.cells, Shape(3, 3), rules=Rules.of(cages=Cages(9, made)))


def test_solo_killers_have_different_ids_named_killer() -> None:
    ids = [canonical_id(g) for g in solo_killers()]
    assert len(set(ids)) == len(ids) == 120
    assert all(i.startswith("9x9-killer-") for i in ids)


@pytest.mark.parametrize("index", range(0, 120, 7))
def test_the_same_id_under_every_map_of_the_square(index: int) -> None:
    grid = solo_killers()[index]
    c = canonical(grid)
    assert c.transform.apply(grid) == c.grid and c.grid.rules.cages is not None
    assert c.transform.digits == DIGITS
    cages = grid.rules.cages
    assert cages is not None
    for t in _square_maps():
        image = t.apply(grid)
        assert image.rules.cages is not None and len(image.rules.cages) == len(cages)
        again = canonical(image)
        assert again.grid == c.grid and again.grid.rules == c.grid.rules
        assert canonical_id(image) == canonical_id(grid)


def test_the_same_id_under_random_maps_that_keep_the_cages() -> None:
    rng = random.Random(5)
    kept_beyond_the_square = 0
    for index in (40, 80):
        grid = solo_killers()[index]
        solution = solve(grid)
        assert solution is not None
        cut = _cut(grid, solution.cells)
        want = canonical(cut)
        assert ids_of_canonical([want.grid]) != [canonical_id(grid)]
        tried = 0
        while tried < 4:
            r = Transform.random(cut.shape, rng)
            t = Transform(r.shape, r.transpose, r.rows, r.cols, DIGITS)
            try:
                image = t.apply(cut)
            except ValueError:
                continue  # a map that breaks a cage: not one of the layout's
            tried += 1
            kept_beyond_the_square += (t.rows, t.cols) not in {
                (a, b) for a in (IDENT, MIRROR) for b in (IDENT, MIRROR)
            }
            again = canonical(image)
            assert again.grid == want.grid and again.grid.rules == want.grid.rules
            assert again.transform.apply(image) == again.grid
    assert kept_beyond_the_square >= 6


def test_a_map_that_breaks_a_cage_or_relabels_is_refused() -> None:
    grid = solo_killers()[0]
    swap = Transform(Shape(3, 3), False, (1, 0, 2, 3, 4, 5, 6, 7, 8), IDENT, DIGITS)
    relabel = Transform(Shape(3, 3), False, IDENT, IDENT, (0, 2, 1, 3, 4, 5, 6, 7, 8, 9))
    with pytest.raises(ValueError, match="breaks a killer cage"):
        swap.apply(grid)
    with pytest.raises(ValueError, match="keeps the digits"):
        relabel.apply(grid)


def test_different_sums_or_givens_make_different_ids() -> None:
    grid = solo_killers()[2]
    cages = grid.rules.cages
    assert cages is not None
    solution = solve(grid)
    assert solution is not None
    pair = next(c for c in cages if len(c.cells) == 2)
    other = Rules.of(
        cages=Cages(9, [Cage(c.cells, c.total + (c is pair)) for c in cages if c.total])
    )
    changed = Grid.from_cells(grid.cells, Shape(3, 3), rules=other)
    given = grid.with_digit(pair.cells[0], solution.cells[pair.cells[0]])
    ids = {canonical_id(g) for g in (grid, changed, given)}
    assert len(ids) == 3


def test_killer_x_keeps_only_the_maps_of_x() -> None:
    solution = random_grid(rules="x", seed=4).cells
    layout = random_layout(solution, 9, random.Random(4), 4)
    rules = Rules.of(
        ["x"], cages=Cages(9, [Cage(tuple(c), sum(solution[x] for x in c)) for c in layout])
    )
    grid = Grid.from_cells(bytes(81), Shape(3, 3), rules=rules)
    want = canonical_id(grid)
    assert want.startswith("9x9-killer.x-")
    for t in _square_maps():  # the square's maps keep both diagonals
        assert canonical_id(t.apply(grid)) == want
    rng = random.Random(2)
    for _ in range(10):
        t, image = random_isomorph(grid, rng)
        assert t.digits == DIGITS and canonical_id(image) == want
    assert (
        canonical_id(Grid.from_cells(bytes(81), Shape(3, 3), rules=Rules.of(cages=rules.cages)))
        != want
    )


def test_classic_and_other_rules_ids_stay() -> None:
    assert canonical_id(Grid("." * 81)) == "9x9-bminwzkx4qj7nqfgawpb4wrvc4"
    assert canonical_id(Grid("." * 81, rules="x")).startswith("9x9-x-")


def test_a_layout_most_maps_keep_is_beyond_the_bound() -> None:
    solution = solve(solo_killers()[0])
    assert solution is not None
    few = Cages(9, [Cage((0, 1), solution.cells[0] + solution.cells[1])])
    grid = Grid.from_cells(solution.cells[:20] + bytes(61), Shape(3, 3), rules=Rules.of(cages=few))
    with pytest.raises(ValueError, match="more than the search's bound of 50000"):
        canonical_id(grid)
