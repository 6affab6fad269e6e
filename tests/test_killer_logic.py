"""The logic engine on killer puzzles: every step checked against the known solution, on the
120 killer puzzles of Simon Tatham's solo and on random cage layouts made unique (the
pure-Python killer solver confirms the small ones unique); sudokit's grade against solo's;
an easy killer is solved by singles and cage combinations alone."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
from pathlib import Path

import pytest

from killer_oracle import count as oracle_count
from killer_puzzles import GRADES, solo_killers, unique_killer
from sudokit import Grid, Shape
from sudokit.engine import solve
from sudokit.logic import Candidates, hint, solve_path
from sudokit.logic.killer import KILLER_FINDERS
from sudokit.rating import KILLER_LEVEL_TECHNIQUES, KillerLevel, killer_level, rate, screen

#: The steps singles and cage combinations take.
EASY_STEPS = {
    "full-house",
    "hidden-single",
    "naked-single",
    "cage-single",
    "cage-combination",
    "cage-confinement",
}


def _check_steps(grid: Grid) -> tuple[bool, set[str]]:
    """Solve ``grid`` as a person would; every placement and elimination must agree with its
    one solution, and every step read as text. Whether it was solved, and the step kinds."""
    solution = solve(grid)
    assert solution is not None
    result = solve_path(grid)
    kinds = set()
    for step in result.steps:
        kinds.add(step.technique)
        for cell, digit in step.placements:
            assert solution.cells[cell] == digit, (str(grid.rules), step.text)
        for cell, digit in step.eliminations:
            assert solution.cells[cell] != digit, (str(grid.rules), step.text)
        assert step.text and "None" not in step.text
    if result.solved:
        assert result.state.to_grid().cells == solution.cells
    return result.solved, kinds


def test_every_step_on_solos_killers_agrees_with_the_solution() -> None:
    seen: set[str] = set()
    for _, grid in solo_killers():
        solved, kinds = _check_steps(grid)
        assert solved
        seen |= kinds
    # each killer step kind is taken somewhere on the way: none of the checks is vacuous
    assert {
        "cage-single",
        "cage-combination",
        "cage-confinement",
        "cage-overlap",
        "innies",
        "outies",
    } <= seen


def test_every_step_on_killer_x_and_windoku_agrees_with_the_solution() -> None:
    extra_houses = 0  # rule of 45 steps on a diagonal or a window
    for seed in range(6):
        grid = unique_killer(Shape(3, 3), seed, 4, ("x", "windoku")[seed % 2])
        _check_steps(grid)
        solution = solve(grid)
        assert solution is not None
        for slug in ("rule-of-45-single", "rule-of-45"):  # from the start, on every house
            for step in KILLER_FINDERS[slug](Candidates.from_grid(grid)):
                assert all(solution.cells[c] == d for c, d in step.placements)
                assert all(solution.cells[c] != d for c, d in step.eliminations)
                extra_houses += max(step.units) >= 27
    assert extra_houses


@pytest.mark.parametrize("box", [(2, 2), (2, 3), (3, 3)])
def test_every_step_on_random_killers_agrees_with_the_solution(box: tuple[int, int]) -> None:
    shape = Shape(*box)
    solved = 0
    for seed in range(12 if box == (3, 3) else 25):
        grid = unique_killer(shape, seed, 2 + seed % 4)
        if shape.n <= 6:  # the pure-Python solver agrees that it is unique
            cages = grid.rules.cages
            assert cages is not None
            found, _ = oracle_count(*box, [(c.cells, c.total) for c in cages], list(grid.cells))
            assert found == 1
        solved += _check_steps(grid)[0]
    assert solved  # the checks ran on whole paths too


def test_cage_combinations_of_a_small_layout() -> None:
    # 4x4: cage 3 on r1c1-r1c2 can only be {1,2}
    grid = Grid("." * 16, shape=Shape(2, 2), rules="killer:AABB CCDB EEDF GGHF / 3,9,7,5,4,6,5,2")
    steps = list(KILLER_FINDERS["cage-combinations-2"](Candidates.from_grid(grid)))
    first = steps[0]
    assert first.technique == "cage-combination" and first.cells == (0, 1)
    assert set(first.eliminations) == {(0, 3), (0, 4), (1, 3), (1, 4)}
    assert first.detail("combinations") == (0b11,)
    assert first.text.startswith("Cage combinations: in cage 3 at r1c1, r1c1, r1c2 add up to 3")


def test_an_innie_of_a_row_is_placed() -> None:
    # 4x4 (sums from the grid 1234 3412 2143 4321): row 1 holds cages A (3) and B (3) whole,
    # and C runs down from r1c4: the innie r1c4 is 10 - 6 = 4
    grid = Grid("." * 16, shape=Shape(2, 2), rules="killer:AABC DDEC FFGG HHII / 3,3,6,7,1,3,7,7,3")
    state = Candidates.from_grid(grid)
    steps = list(KILLER_FINDERS["rule-of-45-single"](state)) + list(
        KILLER_FINDERS["rule-of-45"](state)
    )
    assert steps and all(s.technique in ("innies", "outies") for s in steps)
    assert steps[0].placements == ((3, 4),) and steps[0].units == (0,)
    solution = solve(grid)
    assert solution is not None
    for step in steps:
        for cell, digit in step.placements:
            assert solution.cells[cell] == digit
        for cell, digit in step.eliminations:
            assert solution.cells[cell] != digit
        assert step.text.startswith("Rule of 45: ")


def _ratings() -> dict[str, list[float]]:
    by_grade: dict[str, list[float]] = {g: [] for g in GRADES}
    for grade, grid in solo_killers():
        by_grade[grade].append(rate(grid).er)
    return by_grade


def test_the_grade_rises_with_solos_grade() -> None:
    ratings = _ratings()
    means = [statistics.mean(ratings[g]) for g in GRADES]
    medians = [statistics.median(ratings[g]) for g in GRADES]
    assert means == sorted(means) and len(set(means)) == len(means), means
    assert medians == sorted(medians), medians
    assert medians[0] < medians[-1], medians


def test_an_easy_killer_is_solved_by_singles_and_cage_combinations_alone() -> None:
    levels = []
    for _, grid in solo_killers():
        rating = rate(grid)
        assert rating.solved and rating.killer is not None
        levels.append(rating.killer)
        again = solve_path(grid, techniques=["singles", "cage-combinations"])
        assert {s.technique for s in again.steps} <= EASY_STEPS
        assert again.solved == (rating.killer is KillerLevel.EASY)
    assert levels.count(KillerLevel.EASY) >= 10


def test_a_killer_level_is_the_least_whose_techniques_solve_it() -> None:
    for _, grid in solo_killers()[::7]:
        level = killer_level(grid)
        assert level is killer_level(grid, rate(grid).steps)
        for lower, names in KILLER_LEVEL_TECHNIQUES.items():
            assert solve_path(grid, techniques=names).solved == (lower >= level)
    _, grid = solo_killers()[0]
    rating = rate(grid)
    assert rating.killer is not None
    assert rating.to_dict()["level"] == str(rating.killer)
    assert KillerLevel.parse("Extreme") is KillerLevel.EXTREME
    with pytest.raises(ValueError, match="unknown killer level 'fiendish'"):
        KillerLevel.parse("fiendish")


def test_the_level_rises_with_solos_grade() -> None:
    levels: dict[str, list[int]] = {g: [] for g in GRADES}
    for grade, grid in solo_killers():
        rating = rate(grid)
        assert rating.killer is not None
        levels[grade].append(int(rating.killer))
    means = [statistics.mean(levels[g]) for g in GRADES]
    assert means == sorted(means) and len(set(means)) == len(means), means


def test_hints_on_a_killer_grow_in_detail() -> None:
    _, grid = solo_killers()[0]
    texts = []
    for detail in (1, 2, 3):
        found = hint(grid, detail)
        assert found is not None
        texts.append(found.text)
        assert found.to_dict()["detail"] == detail
    assert texts[0].startswith("Look for ") and texts[1].startswith(texts[0].split(" in ")[0])
    assert texts[2] == solve_path(grid).steps[0].text


def _sudokit(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sudokit", *args], capture_output=True, text=True, check=False
    )


def test_the_cli_rates_explains_and_hints_a_killer(tmp_path: Path) -> None:
    grade, grid = solo_killers()[100]
    rating = rate(grid)
    rules, puzzle = str(grid.rules), grid.to_line()
    done = _sudokit("rate", "-j", "1", "--format", "json", "--rules", rules, puzzle)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert (data["er"], data["level"]) == (rating.er, str(rating.killer))
    record = tmp_path / "killer.txt"
    record.write_text(f"{puzzle} # rules={rules}\n", encoding="utf-8")
    done = _sudokit("rate", "-j", "1", str(record))
    assert done.returncode == 0 and done.stdout.split()[-1] == str(rating), done.stderr
    done = _sudokit("explain", str(record))
    assert done.returncode == 0, done.stderr
    steps = solve_path(grid).steps
    assert steps[0].text in done.stdout and "Solved." in done.stdout
    for detail in ("1", "2", "3"):
        done = _sudokit("hint", "--detail", detail, "--rules", rules, puzzle)
        assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == steps[0].text


def test_a_capped_killer_rating_is_a_lower_bound() -> None:
    for _, grid in solo_killers()[::10]:
        full = rate(grid)
        for cap in (1.0, 1.5, 2.0, 2.4, 2.6, 3.0):
            capped = rate(grid, max_rating=cap)
            if capped.capped:
                assert cap < capped.er <= full.er, (cap, capped.er, full.er)
            else:
                assert (capped.er, capped.ep, capped.ed) == (full.er, full.ep, full.ed)
                assert full.er <= cap
        done = screen(grid, 2.5).finish()
        assert (str(done), done.killer, done.solved) == (str(full), full.killer, True)
