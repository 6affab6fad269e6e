"""Shape: geometry derived from box sides, pinned by counts (Norvig: ``len(peers[s]) == 20``)."""

from __future__ import annotations

import doctest
import pickle

import pytest

from sudokit import _shape
from sudokit._shape import MAX_SIDE, Shape, cell_name
from sudokit.errors import InvalidShapeError, SudokitError

from grid_strategies import SHAPES


def test_doctests() -> None:
    assert doctest.testmod(_shape).failed == 0


def test_sudoku_counts() -> None:
    s = Shape(3, 3)
    assert (s.n, s.size) == (9, 81)
    assert len(s.units) == 27
    assert all(len(s.peers[c]) == 20 for c in range(81))
    assert s.units_of[0] == (0, 9, 18)
    assert s.units_of[80] == (8, 17, 26)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_geometry(shape: Shape) -> None:
    n, br, bc = shape.n, shape.box_rows, shape.box_cols
    assert n == br * bc and shape.size == n * n
    assert len(shape.rows) == len(shape.cols) == len(shape.boxes) == n
    assert shape.units == shape.rows + shape.cols + shape.boxes
    for unit in shape.units:
        assert len(unit) == n == len(set(unit))
    everything = set(range(shape.size))
    for group in (shape.rows, shape.cols, shape.boxes):
        assert set().union(*group) == everything  # each kind of unit partitions the grid
    for cell in range(shape.size):
        row, col, box = shape.units_of[cell]
        assert cell in shape.units[row] and cell in shape.units[col] and cell in shape.units[box]
        assert (row, col - n, box - 2 * n) == (
            shape.row_of(cell),
            shape.col_of(cell),
            shape.box_of(cell),
        )
        assert sum(cell in u for u in shape.units) == 3
        assert cell not in shape.peers[cell]
        assert len(shape.peers[cell]) == 3 * n - br - bc - 1
    # A box is box_rows tall and box_cols wide.
    first = shape.boxes[0]
    assert {c // n for c in first} == set(range(br))
    assert {c % n for c in first} == set(range(bc))


def test_box_numbering_is_row_major() -> None:
    s = Shape(2, 3)  # 6x6: boxes two rows tall, three columns wide; three bands, two stacks
    assert s.box_of(0) == 0 and s.box_of(3) == 1 and s.box_of(12) == 2
    assert s.boxes[1] == (3, 4, 5, 9, 10, 11)


def test_names() -> None:
    s = Shape(3, 3)
    assert cell_name(0, 9) == "r1c1" and s.cell_name(80) == "r9c9" and s.cell_name(13) == "r2c5"
    assert [s.unit_name(u) for u in (0, 9, 26)] == ["row 1", "column 1", "box 9"]
    assert str(s) == "3x3" and repr(Shape(2, 3)) == "Shape(2, 3)"


@pytest.mark.parametrize(
    ("text", "expected"),
    [("3x3", Shape(3, 3)), (" 2 x 3 ", Shape(2, 3)), ("3×4", Shape(3, 4)), ("4X3", Shape(4, 3)),
     ("2*4", Shape(2, 4)), ("16", Shape(4, 4)), ("9", Shape(3, 3))],
)  # fmt: skip
def test_parse(text: str, expected: Shape) -> None:
    assert Shape.parse(text) == expected


@pytest.mark.parametrize(
    "text", ["", "3", "6", "1x9", "9x1", "1x3", "3x", "x3", "a", "9x9", "²", " ⁹ "]
)  # superscripts pass str.isdigit
def test_parse_rejects(text: str) -> None:
    with pytest.raises(InvalidShapeError) as info:
        Shape.parse(text)
    assert isinstance(info.value, ValueError) and isinstance(info.value, SudokitError)


@pytest.mark.parametrize(("rows", "cols"), [(1, 4), (4, 1), (1, 1), (0, 5), (-2, -2), (8, 9)])
def test_invalid_shapes(rows: int, cols: int) -> None:
    with pytest.raises(InvalidShapeError):
        Shape(rows, cols)


def test_largest_shape() -> None:
    assert Shape(6, 6).n == MAX_SIDE
    with pytest.raises(InvalidShapeError, match="maximum"):
        Shape(6, 7)
    with pytest.raises(InvalidShapeError, match="maximum"):
        Shape(8, 8)


def test_from_size_and_square() -> None:
    assert [Shape.from_size(k) for k in (16, 81, 256, 625, 1296)] == [
        Shape(2, 2),
        Shape(3, 3),
        Shape(4, 4),
        Shape(5, 5),
        Shape(6, 6),
    ]
    with pytest.raises(InvalidShapeError, match="not a square"):
        Shape.from_size(80)
    with pytest.raises(InvalidShapeError, match="explicitly"):
        Shape.from_size(36)
    with pytest.raises(InvalidShapeError):
        Shape.square(6)


def test_value_semantics() -> None:
    assert Shape(2, 3) == Shape(2, 3) != Shape(3, 2)
    assert len({Shape(2, 3), Shape(2, 3), Shape(3, 2)}) == 2
    assert Shape(3, 3) != "3x3"
    s = Shape(3, 4)
    _ = s.peers  # cached geometry must not bloat or break pickles
    clone = pickle.loads(pickle.dumps(s))
    assert clone == s and clone.peers == s.peers
    assert len(pickle.dumps(s)) < 100
