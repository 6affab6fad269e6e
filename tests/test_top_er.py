"""The highest ER a shape reaches (:func:`sudokit.difficulty.top_er`): targets above it are
refused at once, and on 4x4 it is measured over every puzzle there is."""

from __future__ import annotations

import time

import pytest

from sudokit import Grid, Shape
from sudokit.bank import check_fill
from sudokit.canon import canonical_id
from sudokit.cli import main
from sudokit.difficulty import generate, generate_many, top_er, top_level
from sudokit.engine import count_many, random_grid
from sudokit.rating import Level, rate


@pytest.mark.parametrize(
    "options",
    [{"level": "medium"}, {"level": "diabolical"}, {"er": (1.3, 2.0)}, {"require": ["x-wing"]}],
)
def test_targets_above_the_shapes_reach_fail_at_once(options: dict[str, object]) -> None:
    t = time.monotonic()
    with pytest.raises(ValueError, match="4x4"):
        generate(shape=Shape(2, 2), timeout=30, **options)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="4x4"):
        generate_many(2, shape=Shape(2, 2), timeout=30, **options)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="4x4"):
        check_fill(1, shape=Shape(2, 2), **options)  # type: ignore[arg-type]
    assert time.monotonic() - t < 1.0


def test_what_the_shape_reaches_is_still_made() -> None:
    made = generate(shape=Shape(2, 2), level="easy", seed=1, with_rating=True)
    assert rate(made.puzzle).er <= top_er(Shape(2, 2)) == 1.2
    assert top_level(Shape(2, 2)) == Level.EASY
    assert top_level(Shape(3, 3)) == top_level(Shape(2, 3)) == Level.DIABOLICAL


def test_no_4x4_puzzle_rates_above_top_er() -> None:
    """Every clue subset of both essentially different 4x4 grids with one solution, rated:
    the highest ER is top_er's (91,428 puzzles, a few seconds)."""
    shape = Shape(2, 2)
    grids: dict[str, Grid] = {}
    for seed in range(200):
        g = random_grid(shape, seed=seed)
        grids.setdefault(canonical_id(g), g)
    assert len(grids) == 2
    top = 0.0
    for g in grids.values():
        subsets = [
            Grid.from_cells(bytes(v if mask >> i & 1 else 0 for i, v in enumerate(g.cells)), shape)
            for mask in range(1 << shape.size)
        ]
        for p, count in zip(subsets, count_many(subsets, limit=2), strict=True):
            if count == 1:
                top = max(top, rate(p).er)
    assert top == top_er(shape)


def test_the_command_line_refuses_them_too(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "--shape", "2x2", "--level", "hard", "-n", "1"]) == 2
    assert "no 4x4 puzzle rates ER 1.6 or more" in capsys.readouterr().err
