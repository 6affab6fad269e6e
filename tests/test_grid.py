"""Grid: an immutable value of a shape and cell digits; construction checks, repr, pickle."""

from __future__ import annotations

import copy
import doctest
import pickle
import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudokit import _grid
from sudokit._grid import Grid
from sudokit._shape import Shape
from sudokit.errors import InvalidPuzzleError

from grid_strategies import SHAPES, grids, puzzle_cells, solution_cells

PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
SUDOKU = Shape(3, 3)


def test_doctests() -> None:
    assert doctest.testmod(_grid).failed == 0


def test_basic_accessors() -> None:
    g = Grid(PUZZLE)
    assert g.shape == SUDOKU and g.n == 9 and len(g) == 81
    assert isinstance(g.cells, bytes) and len(g.cells) == 81
    assert g[0] == 5 and g[1] == 3 and g[2] == 0 and g[80] == 9
    assert list(g)[:5] == [5, 3, 0, 0, 7]
    assert g.clue_count == 30
    assert len(g.empty_cells()) == 51 and g.empty_cells()[:2] == [2, 3]
    assert not g.is_complete()
    assert g.conflicts() == []
    assert str(g) == PUZZLE == g.to_line()


def test_empty_and_trusted() -> None:
    e = Grid.empty(Shape(2, 3))
    assert e.cells == bytes(36) and e.clue_count == 0 and e.empty_cells() == list(range(36))
    t = Grid.unchecked(SUDOKU, Grid(PUZZLE).cells)
    assert t == Grid(PUZZLE) and type(t) is Grid


def test_unchecked_many_is_unchecked_for_each() -> None:
    shape = Shape(2, 3)
    parts = [bytes([k % 7] * 36) for k in range(5)]
    many = Grid.unchecked_many(shape, b"".join(parts))
    assert many == [Grid.unchecked(shape, c) for c in parts]
    assert all(type(g) is Grid and g.shape is shape for g in many)
    assert Grid.unchecked_many(shape, b"") == []

    class Sub(Grid):
        __slots__ = ()

    assert [type(g) for g in Sub.unchecked_many(shape, parts[0] * 2)] == [Sub, Sub]


def test_grids_keep_the_collector_out_only_of_plain_grids() -> None:
    """_engine.grids leaves grids with just the two slots untracked (they can be in no cycle),
    but not instances that can hold more, and refuses what is not such a class."""
    import gc

    from sudokit import _engine

    shape = Shape(2, 2)
    plain = _engine.grids(Grid, shape, bytes(32), 16)
    assert [g.cells for g in plain] == [bytes(16)] * 2 and not gc.is_tracked(plain[0])

    class Loose(Grid):  # a __dict__: it could hold itself
        pass

    assert gc.is_tracked(_engine.grids(Loose, shape, bytes(16), 16)[0])
    with pytest.raises(ValueError, match="multiple of 16 bytes, got 17"):
        _engine.grids(Grid, shape, bytes(17), 16)
    with pytest.raises(ValueError, match="size must be at least 1, got 0"):
        _engine.grids(Grid, shape, bytes(16), 0)
    with pytest.raises(TypeError, match="cannot make int instances"):
        _engine.grids(int, shape, bytes(16), 16)
    with pytest.raises(TypeError, match="has no slot _cells"):
        _engine.grids(type("Bare", (), {}), shape, bytes(16), 16)

    class Held(dict):  # type: ignore[type-arg]  # a built-in's state that tp_alloc leaves unset
        __slots__ = ("_cells", "_shape")

    with pytest.raises(TypeError, match="cannot make Held instances"):
        _engine.grids(Held, shape, bytes(16), 16)


def test_batch_cells_takes_only_the_common_case() -> None:
    """_engine.batch_cells joins a list or tuple of exact Grids of one Shape object, and gives
    None for anything else, which search_batch then checks and joins in Python."""
    from sudokit import _engine, solve_many

    a, b = Shape(3, 3), Shape(3, 3)
    same = [Grid.unchecked(a, g.cells) for g in (Grid(PUZZLE), Grid.empty(a))]
    assert _engine.batch_cells(same, Grid) == (a, same[0].cells + same[1].cells)
    assert _engine.batch_cells(tuple(same), Grid) == (a, same[0].cells + same[1].cells)

    class Sub(Grid):
        __slots__ = ()

    for other in (
        [],
        [same[0], Grid.unchecked(b, same[1].cells)],  # equal shapes, two objects
        [same[0], Sub.unchecked(a, same[1].cells)],
        [same[0], "x"],
        [same[0], Grid.unchecked(a, bytearray(81))],  # type: ignore[arg-type]
        [same[0], Grid.unchecked(a, bytes(80))],
        [same[0], object.__new__(Grid)],  # slots unset
        iter(same),
        same[0],
    ):
        assert _engine.batch_cells(other, Grid) is None
    assert solve_many([same[0], Grid.unchecked(b, same[0].cells)]) == [solve_many(same[:1])[0]] * 2


def test_batch_shape_paths() -> None:
    from sudokit._grid import batch_shape

    a, b = Shape(3, 3), Shape(3, 3)  # equal, not the same object: the slower path
    grids = [Grid.empty(a), Grid.empty(b), Grid.unchecked(a, bytes(81))]
    assert batch_shape(grids) == a
    assert batch_shape(grids[:1]) is a

    class Sub(Grid):
        __slots__ = ()

    assert batch_shape([Grid.empty(a), Sub.empty(a)]) == a
    with pytest.raises(TypeError, match="grid 1 of the batch is a str"):
        batch_shape([Grid.empty(a), "x"])  # type: ignore[list-item]
    with pytest.raises(ValueError, match="grid 0 is 3x3, grid 2 is 2x2"):
        batch_shape([Grid.empty(a), Grid.empty(b), Grid.empty(Shape(2, 2))])


def test_from_cells() -> None:
    g = Grid(PUZZLE)
    assert Grid.from_cells(g.cells, SUDOKU) == g
    assert Grid.from_cells(list(g.cells), SUDOKU) == g
    assert Grid.from_cells(bytearray(g.cells), SUDOKU) == g
    assert Grid.from_cells(tuple(g.cells), SUDOKU) == g


@pytest.mark.parametrize(
    ("cells", "message"),
    [
        (bytes(80), "expected 81 cells, got 80"),
        (bytes(82), "expected 81 cells, got 82"),
        (bytes([10]) + bytes(80), "r1c1 holds 10, expected a digit 0-9"),
        ([0] * 80 + [-1], "r9c9 holds -1"),
        ([0] * 40 + [1.0] + [0] * 40, "r5c5 holds 1.0"),
        ([0] * 9 + [True] + [0] * 71, "r2c1 holds True"),
        ([0] * 80 + [1000], "r9c9 holds 1000"),
        (bytes([5, 0, 0, 0, 5]) + bytes(76), "digit 5 at r1c1 and r1c5 (row 1)"),
    ],
)
def test_from_cells_rejects(cells: bytes | list[object], message: str) -> None:
    with pytest.raises(InvalidPuzzleError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Grid.from_cells(cells, SUDOKU)  # type: ignore[arg-type]


def test_from_cells_rejects_text() -> None:
    with pytest.raises(TypeError, match="Grid\\(text\\)"):
        Grid.from_cells(PUZZLE, SUDOKU)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("cells", "unit"),
    [
        ({0: 5, 4: 5}, "r1c1 and r1c5 (row 1)"),
        ({3: 7, 75: 7}, "r1c4 and r9c4 (column 4)"),
        ({30: 2, 50: 2}, "r4c4 and r6c6 (box 5)"),
        ({0: 1, 10: 1}, "r1c1 and r2c2 (box 1)"),
    ],
)
def test_conflicts_are_named(cells: dict[int, int], unit: str) -> None:
    values = bytearray(81)
    for cell, digit in cells.items():
        values[cell] = digit
    text = "".join(str(d) if d else "." for d in values)
    with pytest.raises(InvalidPuzzleError) as info:
        Grid(text)
    assert "conflicting clues" in str(info.value) and unit in str(info.value)
    with pytest.raises(InvalidPuzzleError) as info:
        Grid.from_cells(bytes(values), SUDOKU)
    assert "conflicting clues" in str(info.value) and unit in str(info.value)
    g = Grid(text, allow_conflicts=True)
    ((a, b, u),) = g.conflicts()
    assert f"{SUDOKU.cell_name(a)} and {SUDOKU.cell_name(b)} ({SUDOKU.unit_name(u)})" == unit


def test_conflicts_list_every_pair_and_unit() -> None:
    values = bytearray(81)
    values[0] = values[1] = values[2] = 4  # three 4s in row 1 and box 1
    g = Grid.from_cells(bytes(values), SUDOKU, allow_conflicts=True)
    pairs = {(0, 1), (0, 2), (1, 2)}
    assert g.conflicts() == [(a, b, 0) for a, b in sorted(pairs)] + [
        (a, b, 18) for a, b in sorted(pairs)
    ]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SHAPES), st.integers(0, 2**32 - 1))
def test_conflicts_match_brute_force(shape: Shape, seed: int) -> None:
    rng = random.Random(seed)
    values = bytearray(puzzle_cells(shape, rng, 0.3))
    for _ in range(rng.randrange(3)):  # plant a few random digits, maybe conflicting
        values[rng.randrange(shape.size)] = rng.randint(1, shape.n)
    g = Grid.from_cells(bytes(values), shape, allow_conflicts=True)
    expected = [
        (a, b, u)
        for u, unit in enumerate(shape.units)
        for a, b in combinations(unit, 2)
        if values[a] and values[a] == values[b]
    ]
    assert g.conflicts() == expected
    assert (_grid.conflict_reason(shape, bytes(values)) is None) == (not expected)


def test_unsolvable_but_conflict_free_is_valid() -> None:
    # r1c9 cannot hold anything: 1-8 in row 1, 9 in column 9; still a valid Grid.
    text = "12345678." + "........9" + "." * 63
    g = Grid(text)
    assert g.conflicts() == [] and g.clue_count == 9


def test_with_digit_and_without() -> None:
    g = Grid(PUZZLE)
    h = g.with_digit(2, 4)
    assert h[2] == 4 and g[2] == 0 and h.clue_count == g.clue_count + 1
    assert h.without(2) == g
    assert g.without(0)[0] == 0 and g[0] == 5
    with pytest.raises(InvalidPuzzleError, match="digit 5 at r1c3 conflicts with r1c1 \\(row 1\\)"):
        g.with_digit(2, 5)
    assert g.with_digit(2, 5, allow_conflicts=True).conflicts()
    with pytest.raises(InvalidPuzzleError, match="out of range 1-9"):
        g.with_digit(2, 10)
    with pytest.raises(InvalidPuzzleError, match="out of range 1-9"):
        g.with_digit(2, 0)
    with pytest.raises(IndexError):
        g.with_digit(81, 1)
    with pytest.raises(IndexError):
        g.without(-1)


def test_immutable() -> None:
    g = Grid(PUZZLE)
    with pytest.raises(AttributeError):
        g.cells = bytes(81)  # type: ignore[misc]
    with pytest.raises(AttributeError):
        g.extra = 1  # type: ignore[attr-defined]
    with pytest.raises(AttributeError):
        del g.shape
    assert not hasattr(g, "__dict__")
    assert copy.copy(g) is g and copy.deepcopy(g) is g


def test_equality_and_hash() -> None:
    a, b = Grid(PUZZLE), Grid(PUZZLE.replace(".", "0"))
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != Grid(PUZZLE[:-1] + ".")
    assert a != PUZZLE
    # Same cells, different shapes: not equal.
    cells = bytes(36)
    assert Grid.unchecked(Shape(2, 3), cells) != Grid.unchecked(Shape(3, 2), cells)


def test_pickle_is_cheap() -> None:
    g = Grid(PUZZLE)
    data = pickle.dumps(g, protocol=pickle.HIGHEST_PROTOCOL)
    assert pickle.loads(data) == g and len(data) < 250


def test_repr_forms() -> None:
    assert repr(Grid(PUZZLE)) == f"Grid({PUZZLE!r})"
    six = Grid.empty(Shape(2, 3)).with_digit(0, 6)
    assert repr(six) == "Grid('6" + "." * 35 + "', shape=Shape(2, 3))"
    big = Grid.empty(Shape(6, 6)).with_digit(0, 36)
    assert repr(big).startswith("Grid('a...")
    assert eval(repr(big), {"Grid": Grid, "Shape": Shape}) == big


@settings(max_examples=80, deadline=None)
@given(grids())
def test_repr_round_trips(grid: Grid) -> None:
    assert eval(repr(grid), {"Grid": Grid, "Shape": Shape}) == grid


@settings(max_examples=40, deadline=None)
@given(grids())
def test_counts_agree(grid: Grid) -> None:
    empties = grid.empty_cells()
    assert grid.clue_count + len(empties) == grid.shape.size
    assert grid.is_complete() == (not empties)
    assert all(grid[c] == 0 for c in empties)
    assert list(grid) == list(grid.cells)


def test_complete_grids() -> None:
    for shape in SHAPES:
        g = Grid.from_cells(solution_cells(shape, random.Random(7)), shape)
        assert g.is_complete() and g.clue_count == shape.size and g.conflicts() == []


def test_to_line_options() -> None:
    g = Grid(PUZZLE)
    assert g.to_line(empty="0") == PUZZLE.replace(".", "0")
    assert g.to_line(alphabet="abcdefghi")[:2] == "ec"
    with pytest.raises(ValueError, match="empty marker"):
        g.to_line(empty="5")
    with pytest.raises(ValueError, match="empty marker"):
        g.to_line(empty="..")
    with pytest.raises(ValueError, match="fewer than 9"):
        g.to_line(alphabet="12345678")
    hexa = Grid.empty(Shape(4, 4)).with_digit(0, 1).with_digit(1, 16)
    assert hexa.to_line()[:3] == "1G."
    assert hexa.to_line(alphabet="0123456789ABCDEF")[:3] == "0F."
    with pytest.raises(ValueError, match="alphabet"):
        Grid.empty(Shape(6, 6)).to_line(alphabet="0123456789ABCDEF")


def test_to_json() -> None:
    assert Grid(PUZZLE).to_json() == '{"shape": "3x3", "cells": "' + PUZZLE + '"}'
