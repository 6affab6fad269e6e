"""Generation to a target difficulty: every puzzle produced meets its target."""

from __future__ import annotations

import json

import pytest

import sudokit
from sudokit import GenerationError, Rated, Shape, generate, generate_many
from sudokit.cli import main
from sudokit.generator import is_minimal
from sudokit.logic import solve_path
from sudokit.rating import Level, rate

from oracle import checked_path


@pytest.mark.parametrize("level", [Level.EASY, Level.MEDIUM, Level.HARD])
def test_easy_levels_meet_their_range(level: Level) -> None:
    lo, hi = level.range
    for p in generate_many(30, seed=7, level=level):
        assert isinstance(p, Rated) and p.rating is not None
        assert lo <= p.rating.er <= hi
        assert rate(p.puzzle).er == p.rating.er  # the carried rating is the real one
        assert sudokit.is_unique(p.puzzle)


@pytest.mark.parametrize("shape", [Shape(3, 3), Shape(2, 3), Shape(3, 4)])
def test_allow_singles_is_solvable_with_singles_alone(shape: Shape) -> None:
    for p in generate_many(10, shape=shape, seed=3, allow=["singles"], symmetry="none"):
        steps = checked_path(p.puzzle, p.solution, techniques=["singles"])
        assert solve_path(p.puzzle, techniques=["singles"]).solved and steps


def test_allow_hidden_singles_only() -> None:
    for p in generate_many(10, seed=5, allow=["hidden-single"]):
        path = solve_path(p.puzzle, techniques=["hidden-single"])
        assert path.solved
        assert {s.technique for s in path.steps} <= {"hidden-single", "full-house"}


def test_rating_range_and_require() -> None:
    p = generate(er=(2.3, 2.3), seed=2)
    assert isinstance(p, Rated) and p.rating is not None and p.rating.er == 2.3
    q = generate(require=["naked-single"], seed=2)
    assert (
        isinstance(q, Rated)
        and q.rating is not None
        and "naked-single" in {s.technique for s in rate(q.puzzle).steps}
    )


@pytest.mark.parametrize("symmetry", ["rot180", "mirror-h", "none"])
def test_targeted_puzzles_and_the_closest_say_whether_they_are_minimal(symmetry: str) -> None:
    """The generator works out a symmetric puzzle's cell-minimality only for the puzzle it
    returns or keeps as the closest: both carry the reference's answer."""
    with pytest.raises(GenerationError) as e:
        generate(er=(11.5, 11.9), seed=2, symmetry=symmetry, timeout=0.3)
    assert e.value.closest is not None
    for p in [*generate_many(4, seed=21, level="hard", symmetry=symmetry), e.value.closest]:
        # (without a symmetry the dig itself tells, when its search budget held)
        assert p.minimal is not None or symmetry == "none"
        if p.minimal is not None:
            assert p.minimal == is_minimal(p.puzzle, p.solution)


def test_unreachable_difficulty_reports_the_closest() -> None:
    with pytest.raises(GenerationError) as e:
        generate(level="easy", clues=17, seed=1, timeout=0.3)
    assert "ER 1.0-1.2" in str(e.value) and "closest" in str(e.value)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"level": "nightmare"},
        {"er": (5.0, 4.0)},
        {"require": ["telepathy"]},
        {"allow": ["telepathy"]},
        {"level": "easy", "er": (6.0, 7.0)},
    ],
)
def test_bad_difficulty_options(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        next(generate_many(1, seed=1, **kwargs))  # type: ignore[arg-type]


def test_cli_targeted_generation_records_carry_ratings(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["generate", "-n", "3", "--level", "medium", "--seed", "4", "--format", "json"]) == 0
    )
    for line in capsys.readouterr().out.splitlines():
        obj = json.loads(line)
        assert obj["level"] == "medium" and 1.3 <= obj["er"] <= 1.5
        assert rate(sudokit.Grid(obj["puzzle"])).er == obj["er"]
    with pytest.raises(SystemExit):
        main(["generate", "--er", "9-8"])
    assert main(["generate", "--level", "nightmare"]) == 2


@pytest.mark.parametrize("level", ["Easy", "Hard"])
def test_hodoku_level_target(level: str) -> None:
    from sudokit.rating import hodoku

    for p in generate_many(3, seed=4, hodoku_level=level.lower()):
        assert hodoku(p.puzzle).level == level
        assert isinstance(p, Rated) and p.rating is not None and p.rating.hodoku is not None
        assert p.rating.hodoku.level == level
    with pytest.raises(ValueError, match="unknown HoDoKu level"):
        generate(hodoku_level="impossible")


def test_require_on_another_shape() -> None:
    for p in generate_many(3, shape=Shape(2, 3), seed=6, require=["naked-single"]):
        assert "naked-single" in {s.technique for s in rate(p.puzzle).steps}
        steps = checked_path(p.puzzle, p.solution)
        assert steps
