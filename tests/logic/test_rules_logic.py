"""The logic engine under rules beyond the classic ones (x, windoku, dg, antiknight,
antiking, jigsaw and their combinations): every step checked against the solution, the extra
houses and neighbour rules actually used, and the rules it does not handle refused by name.
"""

from __future__ import annotations

from collections import Counter

import pytest
from rules_puzzles import JIGSAW6, JIGSAW9, dig

from sudokit import Grid, Rules, Shape, unique_solution
from sudokit.errors import InvalidRulesError
from sudokit.logic import (
    RULES_TECHNIQUES,
    SE_ORDER,
    Candidates,
    for_rules,
    hint,
    rules_cut,
    select,
    solve_path,
    solve_steps,
)
from sudokit.rules import geometry

from oracle import check_step

RULE_SETS = [
    "x",
    "windoku",
    "dg",
    "antiknight",
    "antiking",
    "x+windoku",
    "antiknight+x",
    "dg+windoku",
    "antiking+dg+x",
    "jigsaw:" + JIGSAW9,
    "jigsaw:" + JIGSAW9 + "+x",
    "jigsaw:" + JIGSAW9 + "+windoku",
]


def _checked(puzzle: Grid) -> list:  # type: ignore[type-arg]
    solution = unique_solution(puzzle)
    assert solution is not None
    state = Candidates.from_grid(puzzle)
    steps = []
    for step in solve_steps(state, in_place=True):
        check_step(step, solution, None)
        steps.append(step)
    # what the steps left is the solution's, candidate for candidate
    for c, v in enumerate(state.values):
        assert v in (0, solution[c])
        if not v:
            assert state.cand[c] >> (solution[c] - 1) & 1
    return steps


@pytest.mark.parametrize("rules", RULE_SETS)
def test_every_step_is_right_under_rules(rules: str) -> None:
    """Steps on minimal puzzles (as far as the techniques that run under rules go) and on
    puzzles they solve: never a wrong placement or elimination."""
    within = for_rules(SE_ORDER, Rules(rules))
    for seed in range(4):
        _checked(dig(rules, seed))
        steps = _checked(dig(rules, 100 + seed, within=within))
        assert steps and all(s.technique for s in steps)


def test_candidates_follow_the_peers_of_the_rules() -> None:
    """A clue removes its digit from every peer under the rules: diagonal, window, group and
    neighbour-rule peers included."""
    for rules in ("x+windoku", "antiknight+antiking+dg"):
        r = Rules(rules)
        puzzle = dig(r, 7)
        state = Candidates.from_grid(puzzle)
        peers = geometry(puzzle.shape, r).peers
        for c, v in enumerate(puzzle.cells):
            if v:
                assert all(not state.cand[p] >> (v - 1) & 1 for p in peers[c])


def _houses_used(rules: str, seeds: range) -> Counter[str]:
    r = Rules(rules)
    geo = geometry(Shape(3, 3), r)
    used: Counter[str] = Counter()
    for seed in seeds:
        for step in _checked(dig(r, seed)):
            for u in step.units:
                used[geo.house_names[u].rsplit(" ", 1)[0]] += 1
    return used


def test_the_extra_houses_are_searched() -> None:
    """Singles, intersections and subsets find steps in the diagonals, windows (implied ones
    too) and disjoint groups: without them these puzzles' paths would not use those houses."""
    assert _houses_used("x", range(6))["diagonal"] > 0
    windows = _houses_used("windoku", range(6))
    assert windows["window"] > 0 and windows["implied window"] > 0
    assert _houses_used("dg", range(6))["group"] > 0


def test_neighbour_rules_remove_candidates() -> None:
    """Under anti-knight, a placement removes its digit a knight's move away (else naked
    singles there would be missed and the path would be classic's)."""
    r = Rules("antiknight")
    puzzle = dig(r, 3)
    state = Candidates.from_grid(puzzle)
    classic = Candidates.from_grid(Grid(puzzle.to_line()))
    knight = geometry(puzzle.shape, r).neighbours
    assert all(not state.cand[c] & ~classic.cand[c] for c in range(81))
    assert any(
        v and classic.cand[p] >> (v - 1) & 1 and not state.cand[p] >> (v - 1) & 1
        for c, v in enumerate(puzzle.cells)
        for p in knight[c]
    )
    singles = select(["singles"])
    easy = dig(r, 3, within=singles)
    assert solve_path(easy, techniques=singles).solved
    assert not solve_path(Grid(easy.to_line()), techniques=singles).solved


def test_jigsaw_on_other_shapes() -> None:
    rules = Rules("jigsaw:" + JIGSAW6)
    for seed in range(3):
        _checked(dig(rules, seed, Shape(2, 3)))


def test_rules_prefix_of_se_order() -> None:
    """Under rules the solver tries SE's techniques up to the first that does not run there
    yet (a later one alone would take steps the missing one takes first)."""
    cut = rules_cut(SE_ORDER)
    assert cut is not None and cut.slug == "nishio"
    chosen = for_rules(SE_ORDER, Rules("x"))
    assert [t.slug for t in chosen] == [t.slug for t in SE_ORDER[: SE_ORDER.index(cut)]]
    assert all(t.slug in RULES_TECHNIQUES for t in chosen)
    assert for_rules(SE_ORDER, Rules("classic")) is SE_ORDER


def test_relation_rules_are_refused_by_name() -> None:
    puzzle = dig("nc", 1)
    for call in (lambda: solve_path(puzzle), lambda: hint(puzzle)):
        with pytest.raises(InvalidRulesError, match="does not handle rule 'nc'"):
            call()


def test_engine_refuses_classic_only_techniques_under_rules() -> None:
    """The C engine itself refuses a technique that reads the classic tables on a rules
    geometry, rather than reading them."""
    from sudokit import _logic
    from sudokit.logic._native import TECH_ID, position

    state = Candidates.from_grid(dig("x", 2))
    with pytest.raises(ValueError, match="technique nishio does not run on rules"):
        _logic.find(TECH_ID["nishio"], *position(state))
    with pytest.raises(ValueError, match="not a rules geometry"):
        _logic.find(TECH_ID["hidden-single"], 3, 3, bytes(state.values), None, b"\0" * 12)


def test_steps_name_the_houses_of_the_rules() -> None:
    """Texts, hints and JSON name diagonals, windows, groups and jigsaw regions."""
    seen: set[str] = set()
    for rules in ("x", "windoku", "dg", "jigsaw:" + JIGSAW9):
        r = Rules(rules)
        names = geometry(Shape(3, 3), r).house_names
        for seed in range(3):
            puzzle = dig(r, seed)
            for step in solve_path(puzzle).steps:
                units = step.to_dict()["units"]
                assert isinstance(units, list)
                for u, entry in zip(step.units, units, strict=True):
                    assert step.unit_name(u) == names[u] == f"{entry[0]} {entry[1]}"
                    # a fish's text names its lines together ("columns 2 and 9"), not its
                    # cover lines
                    if step.technique not in ("x-wing", "swordfish", "jellyfish"):
                        assert names[u] in step.text
                    seen.add(entry[0])
            found = hint(puzzle, 1)
            assert found is not None and found.text.startswith("Look for a")
    assert {"diagonal", "window", "group", "region"} <= seen
