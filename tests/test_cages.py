"""Killer cages: the layout value, its text form, its checks and the sum table, held to
brute force and to the plain solver in killer_oracle.py."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from killer_oracle import count, random_layout
from sudokit import Shape, random_grid
from sudokit.cages import Cage, Cages, sum_range, sum_sets
from sudokit.errors import InvalidRulesError


@pytest.mark.parametrize("n", [1, 4, 6, 9, 12])
def test_the_sum_table_is_every_set_of_different_digits(n: int) -> None:
    for k in range(n + 1):
        lo, hi = sum_range(n, k)
        for total in range(lo - 1, hi + 2):
            expected = sorted(
                sum(1 << (d - 1) for d in c)
                for c in combinations(range(1, n + 1), k)
                if sum(c) == total
            )
            assert list(sum_sets(n, k, total)) == expected, (n, k, total)
        assert sum_sets(n, k, lo) and sum_sets(n, k, hi)


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([(2, 2), (2, 3), (3, 3), (3, 4)]), st.integers(0, 2**32), st.integers(1, 5))
def test_a_layout_reads_back_from_its_text_and_holds_its_solution(
    box: tuple[int, int], seed: int, most: int
) -> None:
    shape = Shape(*box)
    n = shape.n
    solution = random_grid(shape, seed=seed).cells
    rng = random.Random(seed)
    cages = [
        Cage(tuple(c), sum(solution[x] for x in c)) for c in random_layout(solution, n, rng, most)
    ]
    rng.shuffle(cages)
    layout = Cages(n, cages, cover=True)
    assert Cages.parse(str(layout), cover=True) == layout
    assert sorted(c.cells for c in layout) == sorted(tuple(sorted(c.cells)) for c in cages)
    layout.check_givens(solution)
    for cell in range(n * n):
        cage = layout.cage_of(cell)
        assert cage is not None and cell in cage.cells


def test_many_cages_share_labels_where_they_do_not_touch() -> None:
    layout = Cages(9, [Cage((c,), 1 + (c * 7) % 9) for c in range(81)])
    text = str(layout)
    assert len(set(text.partition("/")[0])) < 81  # more cages than labels: labels come back
    assert Cages.parse(text) == layout


def test_the_oracle_finds_the_grid_a_layout_came_from() -> None:
    for seed in range(6):
        shape = Shape(2, 2) if seed % 2 else Shape(2, 3)
        solution = random_grid(shape, seed=seed).cells
        layout = random_layout(solution, shape.n, random.Random(seed), 3)
        cages = [(c, sum(solution[x] for x in c)) for c in layout]
        found, first = count(shape.box_rows, shape.box_cols, cages, limit=50)
        assert found >= 1 and first is not None
        for cells, total in cages:  # whatever it found keeps every cage's rule
            assert sum(first[c] for c in cells) == total
            assert len({first[c] for c in cells}) == len(cells)
        singles = [([c], solution[c]) for c in range(shape.size)]
        assert count(shape.box_rows, shape.box_cols, singles) == (1, list(solution))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("AABA CCCC DDDD EEEE / 3,2,10,10,10", "6 cages in the map but 5 sums"),
        ("AAAA BBBB CCCC DDDD / 10,10,10", "4 cages in the map but 3 sums"),
        ("AAAA BBBB CCCC DDDD 10,10,10,10", "no '/' between the cage map and the sums"),
        ("AAA BBB CC / 6,6,3", "8 labels is not a square grid"),
        ("AAAA BBBB CCCC DDDD / 10,10,x,10", "are not whole numbers"),
        ("AAAA BBBB CCCC DDDD / 10,10,10,11", "cage 11 at r4c1: no 4 different digits 1-4 add up"),
        ("AB.. .... .... .... / 5,2", "cage 5 at r1c1: no 1 different digits 1-4 add up to 5"),
    ],
)
def test_a_bad_cage_map_is_refused_by_name(text: str, message: str) -> None:
    with pytest.raises(InvalidRulesError, match=message.replace("(", r"\(")):
        Cages.parse(text)


def test_bad_cages_are_refused_naming_the_cage() -> None:
    refused = pytest.raises
    with refused(InvalidRulesError, match=r"cage 5 at r1c1 is not connected: r1c1 and r1c3"):
        Cages(4, [Cage((0, 2), 5)])
    with pytest.raises(
        InvalidRulesError, match=r"cage 7 at r1c1 and cage 5 at r1c2 overlap at r1c2"
    ):
        Cages(4, [Cage((0, 1), 7), Cage((1, 2), 5)])
    with pytest.raises(
        InvalidRulesError, match="cage 15 at r1c1 has 5 cells; a cage holds at most 4"
    ):
        Cages(4, [Cage((0, 1, 2, 3, 7), 15)])
    with pytest.raises(
        InvalidRulesError, match=r"cell r1c3 is in no cage \(every cell needs one\)"
    ):
        Cages.parse("AA.. BBBB CCCC DDDD / 3,10,10,10", cover=True)
    with refused(InvalidRulesError, match="cage 3 at r1c1 names a cell twice"):
        Cages(4, [Cage((0, 0, 1), 3)])
    with refused(InvalidRulesError, match="cell 16 is outside the 4x4 grid"):
        Cages(4, [Cage((15, 16), 3)])


def test_givens_that_a_cage_cannot_hold_are_refused_naming_the_cage() -> None:
    layout = Cages.parse("AA.. .... .... .... / 3")
    layout.check_givens([1, 2] + [0] * 14)
    layout.check_givens([0, 2] + [0] * 14)
    with pytest.raises(InvalidRulesError, match="cage 3 at r1c1: no 2 different digits adding up"):
        layout.check_givens([3] + [0] * 15)
    with pytest.raises(InvalidRulesError, match="cage 3 at r1c1 holds 1 twice, at r1c1 and r1c2"):
        layout.check_givens([1, 1] + [0] * 14)
