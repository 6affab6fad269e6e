"""Difficulty targets for killer: ``level`` on the killer scale (easy, medium, hard, extreme:
the least set of techniques that solves the puzzle), ``er``, ``require`` and ``allow`` on SE's,
from the library and from ``sudokit generate`` run as a process.

A puzzle that a set of sound deductions solves has one solution: for the levels below extreme
the technique sets themselves are the check (no uniqueness technique is among them), and the
solution they reach is the generator's. Extreme puzzles are checked by the exact engine and by
the technique sets failing."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from sudokit import Grid, Shape, count_solutions, generate
from sudokit.difficulty import Rated, Request
from sudokit.generator import Generated
from sudokit.logic import select, solve_path
from sudokit.rating import KILLER_LEVEL_TECHNIQUES, KillerLevel, killer_level


def _solved_by(puzzle: Grid, level: KillerLevel) -> Grid | None:
    """The grid the techniques of ``level`` reach from ``puzzle`` when they solve it."""
    result = solve_path(puzzle, techniques=select(KILLER_LEVEL_TECHNIQUES[level]))
    return result.state.to_grid() if result.solved else None


@pytest.mark.parametrize("level", [KillerLevel.EASY, KillerLevel.MEDIUM, KillerLevel.HARD])
def test_each_level_below_extreme_is_the_least_set_that_solves(level: KillerLevel) -> None:
    for seed in (1, 2):
        made = generate(rules="killer", level=str(level), seed=seed, timeout=120)
        assert isinstance(made, Rated) and made.rating is not None
        assert made.rating.killer is level and made.rating.solved
        puzzle = made.puzzle
        assert puzzle.clue_count == 0 and puzzle.rules.cages is not None
        assert _solved_by(puzzle, level) == made.solution  # solved, so unique: the known one
        if level is not KillerLevel.EASY:
            assert _solved_by(puzzle, KillerLevel(level - 1)) is None  # the least such set


def test_extreme_killers_resist_every_level_and_have_one_solution() -> None:
    request = Request.of(rules="killer", level="extreme")
    assert request.cage_sizes == (2, 5)  # no one-cell cages unless asked for
    assert "cage_sizes=2-5" in request.text() and "level=extreme" in request.text()
    for seed in (1, 2):
        made = generate(request, seed=seed, timeout=300)
        puzzle = made.puzzle
        assert count_solutions(puzzle, limit=2) == 1
        assert killer_level(puzzle) is KillerLevel.EXTREME
        assert _solved_by(puzzle, KillerLevel.HARD) is None
        assert puzzle.rules.cages is not None
        assert min(len(c.cells) for c in puzzle.rules.cages) >= 2
        # graded when the rating finishes it; beyond the rating (Nishio and more do not run
        # under cages yet) it comes unrated, extreme by the killer levels alone
        if isinstance(made, Rated):
            assert made.rating is not None and made.rating.killer is KillerLevel.EXTREME
        else:
            assert type(made) is Generated
    given = Request.of(rules="killer", level="extreme", cage_sizes=(1, 4))
    assert given.cage_sizes == (1, 4)  # the user's sizes stand


def test_er_require_and_allow_work_for_killer() -> None:
    made = generate(rules="killer", er=(2.5, 3.0), seed=3, timeout=120)
    assert isinstance(made, Rated) and made.rating is not None
    assert 2.5 <= made.rating.er <= 3.0
    made = generate(rules="killer", require=["rule-of-45"], seed=3, timeout=120)
    assert isinstance(made, Rated) and made.rating is not None
    rule_of_45 = {name for t in select(["rule-of-45"]) for name in t.step_names}
    assert rule_of_45 & {step.technique for step in solve_path(made.puzzle).steps}
    allowed = ["singles", "cage-combinations"]
    made = generate(rules="killer", allow=allowed, seed=3, timeout=120)
    assert solve_path(made.puzzle, techniques=select(allowed)).solved


def test_killer_levels_and_se_levels_are_told_apart() -> None:
    with pytest.raises(ValueError, match="unknown killer level 'fiendish'"):
        Request.of(rules="killer", level="fiendish")
    with pytest.raises(ValueError, match="unknown level 'extreme'"):
        Request.of(level="extreme")
    with pytest.raises(ValueError, match="HoDoKu grades classic puzzles only"):
        Request.of(rules="killer", hodoku_level="easy")
    assert Request.of(rules="killer", level="hard").level is KillerLevel.HARD
    assert Request.parse(Request.of(rules="killer", level="hard").text()).level is KillerLevel.HARD
    assert "level=medium" in Request.of(rules="killer+x", level="medium").key().split()


def test_a_killer_target_no_layout_meets_in_time_names_the_closest() -> None:
    from sudokit.errors import GenerationError

    with pytest.raises(GenerationError, match="killer level medium") as caught:
        generate(rules="killer", shape=Shape(2, 2), level="medium", seed=1, timeout=0.5)
    assert caught.value.closest is not None


def test_sudokit_generate_takes_killer_levels() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "sudokit", "generate", "--rules", "killer", "--level", "hard"]
        + ["-n", "2", "--seed", "5", "--format", "json"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    for line in done.stdout.splitlines():
        obj = json.loads(line)
        puzzle = Grid(obj["puzzle"], rules=obj["rules"])
        assert killer_level(puzzle) is KillerLevel.HARD
    bad = subprocess.run(
        [sys.executable, "-m", "sudokit", "generate", "--rules", "killer", "--level", "diabolical"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert bad.returncode == 2 and "unknown killer level 'diabolical'" in bad.stderr
