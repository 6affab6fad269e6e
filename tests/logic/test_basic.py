"""The basic Sudoku Explainer techniques: intersections, subsets, fish and wings.

Every step goes through the oracle. The focused tests pin the exact first step of each
technique on a puzzle whose SE rating (ER) equals the technique's rating; the sweeps check that
no step is ever wrong, and that the SE-ordered path reproduces SE 1.2.1.3's ER/EP/ED.
"""

from __future__ import annotations

import pytest

import sudokit
from sudokit import Grid, Shape
from sudokit.logic import SE_ORDER, Candidates, Step, Technique, apply, solve_path
from sudokit.logic.intersections import find_direct_intersections

from oracle import check_step, checked_path, data_lines

#: Singles and the basic techniques in Sudoku Explainer's order (uniqueness and BUG, which
#: SE tries between XYZ-Wing and naked quad and after hidden quad, are left out).
SE_BASIC: tuple[Technique, ...] = tuple(
    t for t in SE_ORDER if t.rating <= 5.4 and "uniqueness" not in t.groups
)

# (step technique, puzzle (an se_rated_dev row whose ER is the technique's rating, or a
# HoDoKu exemplar), rating, placements, eliminations, text of the first such step).
FOCUSED: list[
    tuple[str, str, float, tuple[tuple[int, int], ...], tuple[tuple[int, int], ...], str]
] = [
    (
        "direct-pointing",
        "....8.3..2......7.4...3.......2.7..4.8....1..............4...62.31...5...........",
        1.7,
        ((53, 6),),
        (),
        "Direct pointing: in box 4, 6 lies only in row 4, so r4c5, r4c7 cannot be 6; "
        "that leaves r6c9 the only place for 6 in box 6: r6c9=6",
    ),
    (
        "direct-hidden-pair",
        ".............9.58..8..52...2.....6..3.7......65....421..651...8...64..5394.......",
        2.0,
        ((77, 8),),
        (),
        "Direct hidden pair 2/3: in box 8 they fit only in r9c4, r9c5, so those cells cannot "
        "be 8; that leaves r9c6 the only place for 8: r9c6=8",
    ),
    (
        "direct-hidden-triple",
        "............58...9...1.3..7....4..21..43......5...76..1.7..4..5.4....1....36.94..",
        2.5,
        ((15, 3),),
        (),
        "Direct hidden triple 1/4/7: in row 2 they fit only in r2c1, r2c2, r2c8, so those "
        "cells cannot be 3; that leaves r2c7 the only place for 3: r2c7=3",
    ),
    (
        "pointing",
        "........6496..........3..8..2.4....3...3827..6....9.5.8.....5....9.65..2.......97",
        2.6,
        (),
        ((59, 4), (77, 4)),
        "Pointing: in box 2, 4 lies only in column 6: remove 4 from r7c6, r9c6",
    ),
    (
        "claiming",
        ".....7.95.....1...86..2.....2..73..85......6...3..49..3.5...41724................",
        2.8,
        (),
        ((57, 6), (58, 6), (66, 6), (67, 6), (75, 6), (76, 6)),
        "Claiming: in column 6, 6 lies only in box 8: "
        "remove 6 from r7c4, r7c5, r8c4, r8c5, r9c4, r9c5",
    ),
    (
        "naked-pair",
        "...5....4.8.....65......8...9...4..8....2.....2.7..639.6345.9....2..97...78..6...",
        3.0,
        (),
        ((9, 4), (27, 5)),
        "Naked pair 4/5 in r6c1, r8c1 (column 1): remove 4 from r2c1; remove 5 from r4c1",
    ),
    (
        "x-wing",
        "....3......29.13...8.7.5.4..14...52.6.......9.38...47..5.4.9.6...15.37......1....",
        3.2,
        (),
        ((1, 6), (22, 6), (31, 6), (49, 6), (73, 6)),
        "X-Wing on 6 in rows 2 and 8: remove 6 from r1c2, r3c5, r4c5, r6c5, r9c2",
    ),
    (
        "x-wing",
        ".....27...3.........8..7.9.........58......6..6.1.59.4........8.45.19.3...34..51.",
        3.2,
        (),
        ((27, 7), (29, 7), (30, 7), (31, 7), (54, 7), (56, 7), (57, 7), (58, 7)),
        "X-Wing on 7 in columns 2 and 8: "
        "remove 7 from r4c1, r4c3, r4c4, r4c5, r7c1, r7c3, r7c4, r7c5",
    ),
    (
        "hidden-pair",
        ".......7.9.6..2..5..1.3.4..8..5......3.2.4.9......9..6..8.2.7..7..8..5.2.4.......",
        3.4,
        (),
        ((0, 2), (0, 5), (2, 2), (2, 5)),
        "Hidden pair 3/4: in box 1 they fit only in r1c1, r1c3: "
        "remove 2 from r1c1, r1c3; remove 5 from r1c1, r1c3",
    ),
    (
        "naked-triple",
        "....2.......8..47.6..5..3...6...4.8..1..6..9..9.7...5...1..2..8.29..1.......3....",
        3.6,
        (),
        ((58, 4), (58, 9), (67, 4), (77, 9)),
        "Naked triple 4/6/9 in r7c4, r8c4, r9c4 (box 8): "
        "remove 4 from r7c5, r8c5; remove 9 from r7c5, r9c6",
    ),
    (
        "swordfish",
        "..6..........756.....2.3591.5..149.38..9.2.....37......25..94..9...2..3..........",
        3.8,
        (),
        ((18, 7), (43, 7), (44, 7), (71, 7), (72, 7), (79, 7)),
        "Swordfish on 7 in rows 1, 4 and 7: remove 7 from r3c1, r5c8, r5c9, r8c9, r9c1, r9c8",
    ),
    (
        "hidden-triple",
        "........49....61..7..51..3....7...1.4.2...8...1...23..5.1.8.....4.9.......3.4.65.",
        4.0,
        (),
        ((67, 2), (67, 6), (67, 7), (68, 7), (71, 2), (71, 7), (71, 8)),
        "Hidden triple 1/3/5: in row 8 they fit only in r8c5, r8c6, r8c9: remove 2 from r8c5, "
        "r8c9; remove 6 from r8c5; remove 7 from r8c5, r8c6, r8c9; remove 8 from r8c9",
    ),
    (
        "xy-wing",
        ".....18..25.......9.........34...1.....25..6..........5..76..2...1...4...........",
        4.2,
        (),
        ((60, 3),),
        "XY-Wing: pivot r5c3 (7/9) with pincers r5c7 (3/7) and r7c3 (3/9): remove 3 from r7c7",
    ),
    (
        "xyz-wing",
        "......2158.1..9......7...4..4.........8.....7.3..6....1.7..2.....2.8.9........7.3",
        4.4,
        (),
        ((30, 2), (48, 2)),
        "XYZ-Wing: pivot r5c4 (2/5/9) with pincers r5c5 (2/9) and r2c4 (2/5): "
        "remove 2 from r4c4, r6c4",
    ),
    (
        "naked-quad",
        ".3..8....9.8.41.....19..2.7.254..6....3.17.5.7......................51.6...3...98",
        5.0,
        (),
        ((54, 4), (54, 6), (55, 4), (55, 6), (55, 9), (63, 4), (72, 4), (72, 6), (73, 4))
        + ((73, 6),),
        "Naked quad 4/6/7/9 in r7c3, r8c2, r8c3, r9c3 (box 7): remove 4 from r7c1, r7c2, "
        "r8c1, r9c1, r9c2; remove 6 from r7c1, r7c2, r9c1, r9c2; remove 9 from r7c2",
    ),
    (
        "jellyfish",
        "...197....4.....7...9...3..8...3...27..9.2..43...6...1..2...4...1.....9....524...",
        5.2,
        (),
        ((2, 5), (8, 5), (11, 5), (61, 5)),
        "Jellyfish on 5 in columns 1, 2, 5 and 7: remove 5 from r1c3, r1c9, r2c3, r7c8",
    ),
    (
        "hidden-quad",
        "9..1...8..7.9.3.1.8......64.8..2....5....1.7...1....42.4.716..............7.92...",
        5.4,
        (),
        ((69, 3), (69, 5), (69, 8), (71, 3), (71, 8), (71, 9), (78, 3), (78, 5), (78, 8))
        + ((80, 3), (80, 8)),
        "Hidden quad 1/4/6/7: in box 9 they fit only in r8c7, r8c9, r9c7, r9c9: remove 3 from "
        "r8c7, r8c9, r9c7, r9c9; remove 5 from r8c7, r9c7; remove 8 from r8c7, r8c9, r9c7, "
        "r9c9; remove 9 from r8c9",
    ),
]


# An SE 2.6 puzzle (it needs a pointing), and an SE 5.2 puzzle (a jellyfish).
SE_2_6 = ".8.....4.....23..........1.2.....3.7...8...........2...4.68....7.....5..3..4....."
SE_5_2 = "...197....4.....7...9...3..8...3...27..9.2..43...6...1..2...4...1.....9....524..."


def se_ratings(steps: list[Step]) -> tuple[float, float, float]:
    """SE's ER (hardest step), EP (hardest up to the first placement), ED (first step)."""
    er = max(s.rating for s in steps)
    ep, hardest = 0.0, 0.0
    for s in steps:
        hardest = max(hardest, s.rating)
        if s.placements:
            ep = hardest
            break
    return er, ep, steps[0].rating


def check_direct(step: Step, solution: Grid) -> None:
    """A direct step places only; the removals it rests on must be right too."""
    assert len(step.placements) == 1 and not step.eliminations
    cleared = step.detail("cleared")
    assert isinstance(cleared, tuple) and cleared
    for cell, digit in cleared:
        assert solution[cell] != digit, f"{step} rests on removing the solution's {digit}"


@pytest.mark.parametrize(
    ("technique", "puzzle", "rating", "placements", "eliminations", "text"),
    FOCUSED,
    ids=[f"{case[0]}-{i}" for i, case in enumerate(FOCUSED)],
)
def test_first_step_of_each_technique(
    technique: str,
    puzzle: str,
    rating: float,
    placements: tuple[tuple[int, int], ...],
    eliminations: tuple[tuple[int, int], ...],
    text: str,
) -> None:
    steps = checked_path(Grid(puzzle), techniques=SE_BASIC)
    first = next(s for s in steps if s.technique == technique)
    assert (first.rating, first.placements, first.eliminations) == (
        rating,
        placements,
        eliminations,
    )
    assert first.text == text
    # The puzzle's SE rating is this technique's: it is the hardest step of the path.
    assert se_ratings(steps)[0] == rating


def test_direct_claiming() -> None:
    # In a 9x9 grid a direct claiming always comes with a hidden single or a direct pointing
    # that SE finds first, so it never leads a path; ask the technique for all its steps.
    puzzle = Grid(
        ".8.....4.....23..........1.2.....3.7...8...........2...4.68....7.....5..3..4....."
    )
    solution = sudokit.solve(puzzle)
    assert solution is not None
    state = Candidates.from_grid(puzzle)
    for step in checked_path(puzzle, solution, techniques=SE_BASIC):
        if step.technique == "direct-pointing":
            break
        apply(state, step)
    found = list(find_direct_intersections(state))
    for step in found:
        check_step(step, solution, state)
        check_direct(step, solution)
    claiming = [s for s in found if s.technique == "direct-claiming"]
    assert [s.rating for s in claiming] == [1.9, 1.9]
    assert claiming[0].text == (
        "Direct claiming: in column 9, 6 lies only in box 6, so r5c8, r6c8 cannot be 6; "
        "that leaves r8c8 the only place for 6 in column 8: r8c8=6"
    )
    assert found[0].technique == "direct-pointing"  # SE's unit-pair order: pointing first


def test_finders_leave_the_state_alone() -> None:
    puzzle = Grid(
        "...197....4.....7...9...3..8...3...27..9.2..43...6...1..2...4...1.....9....524..."
    )
    state = solve_path(puzzle, techniques=SE_BASIC[:6]).state
    before = (state.values.copy(), state.cand.copy(), state.where.copy())
    for technique in SE_BASIC:
        list(technique.find(state))
    assert (state.values, state.cand, state.where) == before


def _dev_rows(max_er: float) -> list[tuple[str, float, float, float]]:
    rows = []
    for line in data_lines("se_rated_dev.csv")[1:]:
        puzzle, er, ep, ed = line.split(",")[:4]
        if float(er) <= max_er:
            rows.append((puzzle, float(er), float(ep), float(ed)))
    return rows


def test_dev_puzzles_never_wrong_and_rated_as_se() -> None:
    """Every se_rated_dev puzzle up to 5.4: no wrong step; SE's ER/EP/ED where no uniqueness
    or BUG step (ER 4.5-4.9, 5.6-6.0, another family) is needed."""
    rated = agree = 0
    for puzzle, er, ep, ed in _dev_rows(5.4):
        grid = Grid(puzzle)
        solution = sudokit.solve(grid)
        assert solution is not None
        steps = checked_path(grid, solution, techniques=SE_BASIC)
        for step in steps:
            if step.technique.startswith("direct-"):
                check_direct(step, solution)
        if 4.5 <= er <= 4.9:
            continue
        rated += 1
        solved = sum(len(s.placements) for s in steps) == grid.shape.size - grid.clue_count
        agree += solved and se_ratings(steps) == (er, ep, ed)
    assert rated >= 200 and agree == rated


def _top1465(limit: int) -> list[str]:
    return [line[:81] for line in data_lines("top1465.txt", limit=limit)]


def test_top1465_sample_never_wrong() -> None:
    for puzzle in _top1465(30):
        checked_path(Grid(puzzle), techniques=SE_BASIC)


@pytest.mark.slow
def test_top1465_never_wrong() -> None:
    for puzzle in _top1465(300):
        checked_path(Grid(puzzle), techniques=SE_BASIC)


@pytest.mark.parametrize(
    ("shape", "seeds"),
    [
        (Shape(2, 2), 6),
        (Shape(2, 3), 8),
        (Shape(3, 2), 8),
        (Shape(2, 4), 4),
        (Shape(3, 4), 4),
        (Shape(4, 3), 4),
        (Shape(4, 4), 2),
    ],
    ids=str,
)
def test_other_shapes_never_wrong(shape: Shape, seeds: int) -> None:
    for seed in range(seeds):
        p = sudokit.generate(shape=shape, seed=seed)
        for step in checked_path(p.puzzle, p.solution, techniques=SE_BASIC):
            if step.technique.startswith("direct-"):
                check_direct(step, p.solution)


@pytest.mark.slow
@pytest.mark.parametrize("shape", [Shape(2, 3), Shape(3, 4), Shape(4, 3), Shape(4, 4)], ids=str)
def test_other_shapes_never_wrong_many(shape: Shape) -> None:
    used: set[str] = set()
    for seed in range(100, 130):
        p = sudokit.generate(shape=shape, seed=seed)
        used |= {s.technique for s in checked_path(p.puzzle, p.solution, techniques=SE_BASIC)}
    if shape.n >= 12:
        assert {"pointing", "claiming", "naked-pair", "hidden-pair"} <= used
