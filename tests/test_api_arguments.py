"""The library's entry points take what the command line takes: a shape as a :class:`Shape` or
its text (``"2x3"``), a puzzle as a :class:`Grid` or its text; anything else is a TypeError
(or, for text that is not a shape or a puzzle, a ValueError) that says what was expected,
never an AttributeError from deep inside.

Every public function of ``sudokit.__all__`` that takes a shape or a puzzle is listed here
(a test checks the list against ``__all__``), with the functions of the public modules a user
calls on a puzzle: rating, logic, rendering, the bank."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import sudokit
from sudokit import Grid, Shape
from sudokit.bank import Bank, Filters
from sudokit.errors import InvalidPuzzleError, InvalidShapeError
from sudokit.logic import hint, solve_path, solve_steps
from sudokit.rating import hodoku, rate, rate_many, screen
from sudokit.render.svg import svg

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
SIX = "1.3...4...2..3.......5...4.2...6...1..5.6..." + "." * (36 - 44 + 8)  # a 6x6 text

#: Each entry point that takes one puzzle, called on it.
ONE_PUZZLE: dict[str, Callable[[Any], object]] = {
    "solve": sudokit.solve,
    "count_solutions": sudokit.count_solutions,
    "is_unique": sudokit.is_unique,
    "unique_solution": sudokit.unique_solution,
    "canonical": sudokit.canonical,
    "canonical_id": sudokit.canonical_id,
    "format_grid": lambda p: sudokit.format_grid(p, "line"),
    "hunt": lambda p: next(sudokit.hunt([p], min_er=1.0, count=1, seed=1, per_seed=4)),
    "rate": rate,
    "hodoku": hodoku,
    "screen": lambda p: screen(p, 1.1),
    "hint": hint,
    "solve_path": solve_path,
    "solve_steps": lambda p: next(solve_steps(p)),
    "svg": svg,
    "Grid.of": Grid.of,
}

#: Each entry point that takes several puzzles, called on a list of one.
MANY_PUZZLES: dict[str, Callable[[Any], object]] = {
    "solve_many": sudokit.solve_many,
    "count_many": sudokit.count_many,
    "canonical_many": sudokit.canon.canonical_many,
    "canonical_ids": sudokit.canon.canonical_ids,
    "rate_many": rate_many,
}

#: Each entry point that takes a shape, called with it.
ONE_SHAPE: dict[str, Callable[[Any], object]] = {
    "generate": lambda s: sudokit.generate(shape=s, seed=3),
    "generate_many": lambda s: list(sudokit.generate_many(1, shape=s, seed=3)),
    "random_grid": lambda s: sudokit.random_grid(s, seed=3),
    "parse_grid": lambda s: sudokit.parse_grid("." * 36, shape=s),
    "read_puzzles": lambda s: list(sudokit.read_puzzles(["." * 36], shape=s))[0].grid,
    "Grid": lambda s: Grid("." * 36, shape=s),
    "Grid.of": lambda s: Grid.of("." * 36, shape=s),
    "Grid.empty": Grid.empty,
    "Grid.from_cells": lambda s: Grid.from_cells([0] * 36, s),
    "Shape.of": Shape.of,
    "Filters": lambda s: Filters(shape=s).shape,
    "Request": lambda s: sudokit.Request(shape=s).shape,
}

#: The names of ``sudokit.__all__`` that take a shape or a puzzle: the functions above.
COVERED = {"solve", "count_solutions", "is_unique", "unique_solution", "canonical"}
COVERED |= {"canonical_id", "format_grid", "hunt", "solve_many", "count_many", "generate"}
COVERED |= {"generate_many", "random_grid", "parse_grid", "read_puzzles", "Grid", "Request"}
#: Public names that take neither (classes of results, errors, constants).
NEITHER = {"MAX_SIDE", "SYMMETRIES", "__version__", "Vicinity", "Shape", "Transform", "Record"}
NEITHER |= {"Canonical", "Rated", "Generated", "CLASSIC", "Rules", "InvalidRulesError"}


def test_every_public_entry_point_is_listed() -> None:
    for name in sudokit.__all__:
        obj = getattr(sudokit, name)
        if inspect.isclass(obj) and issubclass(obj, BaseException):
            continue
        assert name in COVERED | NEITHER, f"{name}: add it to this test"


@pytest.mark.parametrize("name", sorted(ONE_PUZZLE))
def test_a_puzzle_as_text_is_a_puzzle(name: str) -> None:
    from_text = ONE_PUZZLE[name](EASY)
    from_grid = ONE_PUZZLE[name](Grid(EASY))
    assert type(from_text) is type(from_grid)
    assert repr(from_text) == repr(from_grid)  # (steps have no ==, but a repr)


@pytest.mark.parametrize("name", sorted(ONE_PUZZLE))
@pytest.mark.parametrize("bad", [7, [1, 2, 3], None, b"." * 81])
def test_a_puzzle_of_another_type_is_a_clear_type_error(name: str, bad: object) -> None:
    with pytest.raises(TypeError, match=r"expected a puzzle: a Grid or its text") as e:
        ONE_PUZZLE[name](bad)
    assert type(bad).__name__ in str(e.value)


@pytest.mark.parametrize("name", sorted(ONE_PUZZLE))
def test_text_that_is_no_puzzle_is_a_value_error(name: str) -> None:
    with pytest.raises(InvalidPuzzleError, match="cells"):
        ONE_PUZZLE[name]("12345")


@pytest.mark.parametrize("name", sorted(MANY_PUZZLES))
def test_several_puzzles_as_text(name: str) -> None:
    assert MANY_PUZZLES[name]([EASY, Grid(EASY)]) == MANY_PUZZLES[name]([Grid(EASY)] * 2)
    with pytest.raises(TypeError, match="grid 1 of the batch is a int, not a Grid or a puzzle"):
        MANY_PUZZLES[name]([EASY, 7])
    with pytest.raises(TypeError, match="expected several puzzles"):
        MANY_PUZZLES[name](EASY)


@pytest.mark.parametrize("name", sorted(ONE_SHAPE))
def test_a_shape_as_text_is_a_shape(name: str) -> None:
    from_text = ONE_SHAPE[name]("2x3")
    from_shape = ONE_SHAPE[name](Shape(2, 3))
    assert from_text == from_shape
    if name in ("Shape.of", "Filters", "Request"):
        assert from_text == Shape(2, 3)
    else:
        grid = from_text if isinstance(from_text, Grid) else getattr(from_text, "puzzle", None)
        if isinstance(from_text, list):
            grid = from_text[0].puzzle
        assert isinstance(grid, Grid) and grid.shape == Shape(2, 3)


@pytest.mark.parametrize("name", sorted(ONE_SHAPE))
@pytest.mark.parametrize("bad", [9, (2, 3), [2, 3], 2.5])
def test_a_shape_of_another_type_is_a_clear_type_error(name: str, bad: object) -> None:
    with pytest.raises(TypeError, match=r"expected a shape: a Shape or its text, e\.g\. '3x3'"):
        ONE_SHAPE[name](bad)


@pytest.mark.parametrize("name", sorted(ONE_SHAPE))
def test_text_that_is_no_shape_is_a_value_error(name: str) -> None:
    with pytest.raises(InvalidShapeError, match="invalid shape 'big'"):
        ONE_SHAPE[name]("big")


def test_the_issues_calls() -> None:
    """``generate(shape="2x3")`` and ``rate("<81 chars>")`` raised AttributeError."""
    assert sudokit.generate(shape="2x3", seed=1).puzzle.shape == Shape(2, 3)
    assert str(rate(EASY)) == "ED=1.2/1.2/1.2"


def test_a_grid_of_another_shape_than_the_one_given_is_refused() -> None:
    with pytest.raises(InvalidPuzzleError, match="the grid is 3x3, not the shape 2x3 given"):
        Grid.of(Grid(EASY), shape="2x3")


def test_the_bank_takes_puzzles_and_shapes_as_text(tmp_path: Path) -> None:
    with Bank(tmp_path / "b.db") as bank:
        [added] = bank.add_puzzles([EASY])
        assert getattr(added, "new", False)
        with pytest.raises(TypeError, match="expected a puzzle"):
            bank.add_puzzles([7])  # type: ignore[list-item]
        assert bank.count(Filters(shape="3x3")) == 1
        assert bank.count(Filters(shape="2x3")) == 0
