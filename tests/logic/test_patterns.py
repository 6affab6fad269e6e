"""HoDoKu's named techniques (single-digit patterns, wings, finned fish, colouring, simple chains,
ALS-XZ) and the HoDoKu order table, every step checked against the known solution."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Iterator

import pytest

import sudokit
from sudokit import Grid, Shape
from sudokit.logic import Candidates, Step, Technique, als, apply, coloring, patterns, select
from sudokit.logic.hodoku import (
    HODOKU_LEVEL_OF,
    HODOKU_LEVELS,
    HODOKU_ONLY,
    HODOKU_ORDER,
    HODOKU_SCORES,
    hodoku_grade,
    hodoku_slot,
)

from oracle import check_step, checked_path, data_lines

Finder = Callable[[Candidates], Iterable[Step]]

SINGLES = select(["singles"])

# The wiring the lead engineer will put in the technique table, in HoDoKu's order.
MINE = (
    Technique("remote-pair", "Remote Pair", 6.6, coloring.find_remote_pairs, groups=("chains",)),
    Technique("skyscraper", "Skyscraper", 4.0, patterns.find_skyscrapers),
    Technique("two-string-kite", "2-String Kite", 4.1, patterns.find_two_string_kites),
    Technique("turbot-fish", "Turbot Fish", 4.2, patterns.find_turbot_fish),
    Technique("empty-rectangle", "Empty Rectangle", 4.2, patterns.find_empty_rectangles),
    Technique("w-wing", "W-Wing", 4.4, patterns.find_w_wings),
    Technique("finned-x-wing", "Finned X-Wing", 3.4, patterns.find_finned_x_wings),
    Technique("sashimi-x-wing", "Sashimi X-Wing", 3.5, patterns.find_sashimi_x_wings),
    Technique("finned-swordfish", "Finned Swordfish", 4.0, patterns.find_finned_swordfish),
    Technique("sashimi-swordfish", "Sashimi Swordfish", 4.1, patterns.find_sashimi_swordfish),
    Technique("finned-jellyfish", "Finned Jellyfish", 5.4, patterns.find_finned_jellyfish),
    Technique("sashimi-jellyfish", "Sashimi Jellyfish", 5.5, patterns.find_sashimi_jellyfish),
    Technique(
        "simple-coloring",
        "Simple Colors",
        6.6,
        coloring.find_simple_colors,
        steps=("color-trap", "color-wrap"),
    ),
    Technique("x-chain", "X-Chain", 6.6, coloring.find_x_chains),
    Technique("xy-chain", "XY-Chain", 6.6, coloring.find_xy_chains),
    Technique("wxyz-wing", "WXYZ-Wing", 5.5, patterns.find_wxyz_wings),
    Technique("als-xz", "ALS-XZ", 7.0, als.find_als_xz),
)
HODOKU_PATH = (*SINGLES, *MINE)


def after_singles(puzzle: str) -> tuple[Candidates, Grid]:
    """The state singles get stuck in (every single checked), and the solution."""
    grid = Grid(puzzle)
    solution = sudokit.solve(grid)
    assert solution is not None
    state = Candidates.from_grid(grid)
    for step in checked_path(grid, solution, techniques=SINGLES):
        apply(state, step)
    return state, solution


def first(steps: Iterable[Step], technique: str | None = None) -> Step:
    return next(s for s in steps if technique is None or s.technique == technique)


SKYSCRAPER = "...28.754.9.4.38............397..28.84......3.5.....7...8..1.9......5..23.6......"
KITE = ".56.7.9...4.62..8.28...........8....73....618..5....2...........7.5...49....487.1"
X_CHAIN = "....5..8...7.293..1...74..25.91.2..4....4.........816.718....2...........6......7"

# Exemplars from HoDoKu's library (hodoku_exemplars.txt): the section's technique after
# singles. Where HoDoKu's own source comments a case, the step is the same (the 2-string kite
# "3 in r2c1,r8c5 (connected by r2c6,r3c5) => r8c1<>3" and the finned X-Wing
# "3 r24 c15 fr2c6 => r13c5<>3").
EXEMPLARS: list[tuple[Finder, str, str, bool]] = [
    (  # #0400 Skyscraper, "s sk(4) s"
        patterns.find_skyscrapers,
        SKYSCRAPER,
        "Skyscraper on 6: column 6 and column 9 meet in row 3, so r5c6 or r6c9 is 6; "
        "remove 6 from r5c7, r5c8, r6c4, r6c5",
        True,
    ),
    (  # #0400 Skyscraper, "s sk(3) s"
        patterns.find_skyscrapers,
        "..56.8..33...5.....67..............1.82.145....6........45....77..96..1....1...2.",
        "Skyscraper on 7: row 1 and row 5 meet in column 8, so r1c5 or r5c4 is 7; "
        "remove 7 from r2c4, r4c5, r6c5",
        True,
    ),
    (  # #0401 2-String Kite, "s 2sk(1) s"
        patterns.find_two_string_kites,
        KITE,
        "2-String Kite on 3: row 2 and column 5 meet in box 2, so r2c1 or r8c5 is 3; "
        "remove 3 from r8c1",
        True,
    ),
    (  # #0403 Turbot Fish, "s tf(1) s"
        patterns.find_turbot_fish,
        "2.4..3587.3......2..8..6.............2...4.39....9...659........4.5...1.61.3.9..5",
        "Turbot Fish on 2: r4c7=r4c6-r8c6=r7c5, so r4c7 or r7c5 is 2; remove 2 from r7c7",
        True,
    ),
    (  # #0402 Empty Rectangle, "s er(1) s"
        patterns.find_empty_rectangles,
        "7...56.381.842.............5..3......4..8.7....1...24...3.........1....5.5...7.6.",
        "Empty Rectangle on 2 in box 4 (row 5 and column 3) with r5c4=r9c4: remove 2 from r9c3",
        True,
    ),
    (  # #0803 W-Wing, "s w(5) s"
        patterns.find_w_wings,
        "6......7.....2.....58..1.....4.....2...1..9.6597.4...892.4..6.....5.......68.3...",
        "W-Wing: r1c9 and r8c7 are both 1/4, and r1c3=r8c3 on 1 keeps 1 out of one of them, "
        "so one is 4; remove 4 from r1c7, r2c7, r3c7, r8c9, r9c9",
        True,
    ),
    (  # #0310 Finned X-Wing, "s fbf2(2) s"
        patterns.find_finned_x_wings,
        "1.........5.....61..8...2...7...9.......1.3..4...5...6....98.4...2..1.....36.279.",
        "Finned X-Wing on 3 in rows 2, 4 (columns 1, 5), fin r2c6: remove 3 from r1c5, r3c5",
        True,
    ),
    (  # #0320 Sashimi X-Wing, "s sbf2(2) s"
        patterns.find_sashimi_x_wings,
        "4..5.769.........2.68....3.65.2.4..9....3.4.....9........8..........3..73894.....",
        "Sashimi X-Wing on 8 in rows 1, 4 (columns 5, 9), fins r4c7, r4c8: "
        "remove 8 from r5c9, r6c9",
        True,
    ),
    (  # #0311 Finned Swordfish, "s fbf3(2) s"
        patterns.find_finned_swordfish,
        "........3....6458.54...89...5..72.....16....2....5...9.9.1..2484..........8..5...",
        "Finned Swordfish on 2 in rows 2, 6, 8 (columns 1, 2, 4), fin r8c3: "
        "remove 2 from r9c1, r9c2",
        True,
    ),
    (  # #0321 Sashimi Swordfish, "s sbf3(2) s"
        patterns.find_sashimi_swordfish,
        "94.....7.2..51...9..........2.1....3..........69.7..141..2.5.8...8....4.7...89.3.",
        "Sashimi Swordfish on 5 in rows 1, 6, 8 (columns 3, 7, 9), fin r6c1: "
        "remove 5 from r4c3, r5c3",
        True,
    ),
    (  # #0322 Sashimi Jellyfish, "s sbf4(1) x"
        patterns.find_sashimi_jellyfish,
        "5....271..1...4...8.......................6.4.6..21.854......78...476...9...5...2",
        "Sashimi Jellyfish on 3 in rows 2, 3, 6, 7 (columns 2, 4, 7, 9), fins r2c5, r3c5: "
        "remove 3 from r1c4",
        False,
    ),
    (  # #0701 X-Chain, "s x(3) s"
        coloring.find_x_chains,
        X_CHAIN,
        "X-Chain on 3: r4c2=r4c8-r8c8=r7c9-r7c5=r6c5, so r4c2 or r6c5 is 3; "
        "remove 3 from r6c1, r6c2, r6c3",
        True,
    ),
    (  # #0702 XY-Chain, "s xyc(5) s"
        coloring.find_xy_chains,
        "76.....9.............42536...65..2..9..1.2.......7...9.....643..49.8...2.1...7...",
        "XY-Chain on 5: r5c2(5=8)-r7c2(8=2)-r7c1(2=8)-r3c1(8=1)-r4c1(1=4)-r4c8(4=1)-r6c8(1=5), "
        "so r5c2 or r6c8 is 5; remove 5 from r5c8, r5c9, r6c1, r6c2, r6c3",
        True,
    ),
    (  # #0703 Remote Pairs, "s rp(10) s"
        coloring.find_remote_pairs,
        "1.8....5...4...6.72....3......5...4.6......9....91.7....73.........75.6.38.4.6..5",
        "Remote Pair 2/8: r7c8(2=8)-r2c8(8=2)-r2c6(2=8)-r4c6(8=2)-r4c7(2=8)-r5c9(8=2)-"
        "r5c4(2=8)-r8c4(8=2); remove 2 from r1c7, r7c5, r7c9, r8c7, r8c9; "
        "remove 8 from r3c7, r7c5, r7c9, r8c7, r8c9",
        True,
    ),
    (  # #0901 ALS-XZ, "s axz(2) x" (HoDoKu's first pair in its ALS order removes one)
        als.find_als_xz,
        ".24.6....5.74.9.1..............9..7.4....85.3..8..7.6........46..6..3..7.5.7..1..",
        "ALS-XZ: A=r1c8, r2c7, r2c9, r3c8 (2/3/6/8/9) and B=r4c7, r5c8 (2/8/9), "
        "restricted common 9; remove 8 from r3c7",
        False,
    ),
    (  # #0500 Simple Colors ("ssts" section: here after singles only)
        coloring.find_simple_colors,
        "21..........9....4...4.7.......7..32...6......48.21..642...986...91.8...1.6.....9",
        "Color trap on 3: one colour of a 9-cell chain of strong links is 3; cells that see "
        "both colours lose it; remove 3 from r8c1",
        False,
    ),
]

# Puzzles of the dev set (se_rated_dev.csv) where singles get stuck right before the step.
FOUND: list[tuple[Finder, str, str]] = [
    (
        patterns.find_finned_jellyfish,
        "..389..1.........9.....1.252.13...56.5.........7.2.........8.9..9.5..68.7.....2.1",
        "Finned Jellyfish on 7 in rows 2, 3, 7, 8 (columns 2, 4, 5, 9), fins r2c7, r3c7: "
        "remove 7 from r1c9",
    ),
    (
        patterns.find_wxyz_wings,
        "..389..1.........9.....1.252.13...56.5.........7.2.........8.9..9.5..68.7.....2.1",
        "WXYZ-Wing: r1c7, r1c9, r5c7, r6c7 hold only 1/3/4/7 and every digit but 4 fits there "
        "at most once, so 4 is in one of r1c7, r1c9, r5c7, r6c7; remove 4 from r2c7, r3c7",
    ),
    (
        coloring.find_simple_colors,
        "...........1....4362........3...45...4...7..2..7..14....3.6..2.9...52..1...7.8.59",
        "Color wrap on 6: in a 3-cell chain of strong links, two cells of one colour see each "
        "other, so that colour is not 6; remove 6 from r1c6, r2c4",
    ),
]


@pytest.mark.parametrize(("find", "puzzle", "text", "singles_finish"), EXEMPLARS)
def test_hodoku_exemplars(find: Finder, puzzle: str, text: str, singles_finish: bool) -> None:
    state, solution = after_singles(puzzle)
    step = first(find(state))
    check_step(step, solution, state)
    assert step.text == text
    apply(state, step)
    rest = checked_path(state, solution, techniques=SINGLES)
    assert (len([s for s in rest if s.placements]) == state.values.count(0)) == singles_finish


@pytest.mark.parametrize(("find", "puzzle", "text"), FOUND)
def test_found_after_singles(find: Finder, puzzle: str, text: str) -> None:
    state, solution = after_singles(puzzle)
    step = first(s for s in find(state) if s.text.split(":")[0] in text)
    check_step(step, solution, state)
    assert step.text == text


def test_from_a_players_pencil_marks() -> None:
    """A position given as pencil marks (the exemplar file's other form) gives the same step."""
    state, solution = after_singles(FOUND[0][1])
    player = Candidates.from_masks(state.to_grid(), state.masks())
    step = first(patterns.find_finned_jellyfish(player))
    check_step(step, solution, player)
    assert step.text == FOUND[0][2]


def test_pattern_cells_and_links() -> None:
    state, _ = after_singles(KITE)
    kite = first(patterns.find_two_string_kites(state))
    assert [kite.name(c) for c in kite.cells] == ["r2c1", "r2c6", "r3c5", "r8c5"]
    assert [link.strong for link in kite.links] == [True, False, True]
    assert kite.rating == 4.1 and kite.digits == (3,)
    state, _ = after_singles(SKYSCRAPER)
    step = first(patterns.find_skyscrapers(state))
    assert [step.name(c) for c in step.cells] == ["r5c6", "r3c6", "r3c9", "r6c9"]
    assert step.units == (9 + 5, 9 + 8)  # columns 6 and 9


def test_chain_ratings_follow_se_length_bonus() -> None:
    state, _ = after_singles(X_CHAIN)
    step = first(coloring.find_x_chains(state))
    assert len(step.cells) == 6 and step.rating == 6.7 and step.complexity == 6
    assert [patterns.length_bonus(k) for k in (4, 5, 8, 9, 12, 13)] == [0, 0.1, 0.2, 0.3, 0.3, 0.4]


def test_finders_leave_the_state_alone() -> None:
    state, _ = after_singles(FOUND[0][1])
    before = (state.cand.copy(), state.where.copy(), state.values.copy())
    for t in MINE:
        list(t.find(state))
    assert (state.cand, state.where, state.values) == before


def _sweep(puzzles: list[str]) -> Counter[str]:
    used: Counter[str] = Counter()
    for line in puzzles:
        steps = checked_path(Grid(line[:81]), techniques=HODOKU_PATH)
        used.update(s.technique for s in steps)
        for s in steps:
            assert s.text  # every explainer renders
    return used


def test_no_wrong_deduction_quick() -> None:
    rows = data_lines("se_rated_dev.csv")[1:]
    hard = [r.split(",")[0] for r in rows if float(r.split(",")[1]) >= 6.5][:12]
    used = _sweep(hard + data_lines("top1465.txt", 8))
    assert used["hidden-single"] and sum(used[t.slug] for t in MINE[:6]) > 0


@pytest.mark.slow
def test_no_wrong_deduction_dev_set() -> None:
    rows = data_lines("se_rated_dev.csv")[1:]
    used = _sweep([r.split(",")[0] for r in rows])
    # Every technique fires somewhere on the dev set.
    for t in MINE:
        assert any(used[name] for name in t.step_names), t.slug


@pytest.mark.slow
def test_no_wrong_deduction_top1465() -> None:
    _sweep(data_lines("top1465.txt", 300))


def _blanked(shape: Shape, seed: int, keep: float) -> tuple[Grid, Grid]:
    """A solution grid with most cells blanked (not unique: the oracle checks against the one
    solution given, which every valid deduction keeps)."""
    solution = sudokit.generate(shape=shape, seed=seed, symmetry="none", clues=None).solution
    rng = random.Random(seed)
    cells = bytes(v if rng.random() < keep else 0 for v in solution.cells)
    return Grid.from_cells(cells, shape), solution


@pytest.mark.parametrize("shape", [Shape(2, 3), Shape(3, 2), Shape(2, 4), Shape(4, 2)])
def test_other_shapes_never_wrong(shape: Shape) -> None:
    used: Counter[str] = Counter()
    for seed in range(12):
        puzzle, solution = _blanked(shape, seed, 0.3)
        steps = checked_path(puzzle, solution, techniques=HODOKU_PATH)
        used.update(s.technique for s in steps)
        generated = sudokit.generate(shape=shape, seed=seed, symmetry="none", clues=None)
        checked_path(generated.puzzle, generated.solution, techniques=HODOKU_PATH)
    mine = {name for t in MINE for name in t.step_names}
    assert len(mine & set(used)) >= 5, used


def test_each_finder_on_rectangular_boxes() -> None:
    """Every finder, run alone on sparse 8x8 states (2x4 boxes), removes only wrong candidates."""
    shape = Shape(2, 4)
    fired: Counter[str] = Counter()
    for seed in range(20):
        puzzle, solution = _blanked(shape, 100 + seed, 0.35)
        state = Candidates.from_grid(puzzle)
        for t in MINE:
            for step in t.find(state):
                check_step(step, solution, state)
                fired[step.technique] += 1
    assert len(fired) >= 12, fired


@pytest.mark.parametrize("shape", [Shape(3, 4), Shape(4, 3)])
def test_twelve_by_twelve_never_wrong(shape: Shape) -> None:
    for seed in range(3):
        puzzle, solution = _blanked(shape, seed, 0.45)
        checked_path(puzzle, solution, techniques=HODOKU_PATH)


# The HoDoKu table.


def test_hodoku_table_covers_every_technique() -> None:
    assert set(HODOKU_SCORES) == set(HODOKU_ORDER) == set(HODOKU_LEVEL_OF)
    assert len(HODOKU_ORDER) == len(set(HODOKU_ORDER))
    assert set(HODOKU_LEVEL_OF.values()) <= set(HODOKU_LEVELS)
    for t in MINE:
        assert t.slug in HODOKU_ORDER
        for name in t.step_names:
            assert hodoku_slot(name) == t.slug
    se_named = [
        "full-house", "hidden-single", "naked-single", "pointing-claiming", "naked-pair",
        "hidden-pair", "naked-triple", "hidden-triple", "naked-quad", "hidden-quad", "x-wing",
        "swordfish", "jellyfish", "xy-wing", "xyz-wing", "unique-rectangle", "bug",
    ]  # fmt: skip
    assert set(se_named) <= set(HODOKU_ORDER) - HODOKU_ONLY
    assert set(HODOKU_ORDER) > HODOKU_ONLY


def test_hodoku_scores_levels_and_order() -> None:
    expect = {
        "full-house": (4, "Easy"),
        "hidden-single": (14, "Easy"),
        "pointing-claiming": (50, "Medium"),
        "hidden-triple": (100, "Medium"),
        "naked-quad": (120, "Hard"),
        "x-wing": (140, "Hard"),
        "remote-pair": (110, "Hard"),
        "skyscraper": (130, "Hard"),
        "two-string-kite": (150, "Hard"),
        "turbot-fish": (120, "Hard"),
        "empty-rectangle": (120, "Hard"),
        "w-wing": (150, "Hard"),
        "finned-x-wing": (130, "Hard"),
        "sashimi-x-wing": (150, "Hard"),
        "finned-swordfish": (200, "Unfair"),
        "sashimi-jellyfish": (260, "Unfair"),
        "simple-coloring": (150, "Hard"),
        "x-chain": (260, "Unfair"),
        "xy-chain": (260, "Unfair"),
        "als-xz": (300, "Unfair"),
        "forcing-net": (700, "Extreme"),
    }
    for slug, (score, level) in expect.items():
        assert (HODOKU_SCORES[slug], HODOKU_LEVEL_OF[slug]) == (score, level), slug
    order = HODOKU_ORDER.index
    assert order("full-house") < order("naked-single") < order("hidden-single")
    assert order("jellyfish") < order("remote-pair") < order("bug") < order("skyscraper")
    assert order("empty-rectangle") < order("w-wing") < order("xy-wing") < order("xyz-wing")
    assert order("unique-rectangle") < order("finned-x-wing") < order("simple-coloring")
    assert order("x-chain") < order("xy-chain") < order("wxyz-wing") < order("als-xz")
    assert [s.slug for s in MINE] == sorted((t.slug for t in MINE), key=order)


def test_hodoku_grade_rule() -> None:
    assert hodoku_grade([]) == ("Easy", 0)
    assert hodoku_grade(["hidden-single"] * 56 + ["naked-single"] * 4) == ("Easy", 800)
    assert hodoku_grade(["hidden-single"] * 58) == ("Medium", 812)  # over 800: pushed up
    assert hodoku_grade(["x-chain"] * 7) == ("Extreme", 1820)  # Unfair, but over 1800
    assert hodoku_grade(["color-trap", "pointing"]) == ("Hard", 200)
    with pytest.raises(ValueError, match="no-such"):
        hodoku_grade(["no-such"])


def _singles_in_hodoku_order() -> Iterator[Technique]:
    hidden = next(t for t in SINGLES if t.slug == "hidden-single")
    naked = next(t for t in SINGLES if t.slug == "naked-single")

    def full_house(state: Candidates) -> Iterator[Step]:
        return (s for s in hidden.find(state) if s.technique == "full-house")

    def hidden_only(state: Candidates) -> Iterator[Step]:
        return (s for s in hidden.find(state) if s.technique == "hidden-single")

    yield Technique("full-house", "Full house", 1.0, full_house)
    yield naked
    yield Technique("hidden-single", "Hidden single", 1.2, hidden_only)


def test_hodoku_levels_of_singles_puzzles() -> None:
    """Puzzles solved by singles are Easy in HoDoKu (the dev file's level column) and get
    the same grade here; scores agree where HoDoKu's singles queue picks the same kinds."""
    rows = [r.split(",") for r in data_lines("se_rated_dev.csv")[1:]]
    order = list(_singles_in_hodoku_order())
    graded = same_score = 0
    for puzzle, _er, _ep, _ed, level, score in rows:
        steps = checked_path(Grid(puzzle), techniques=order)
        if len([s for s in steps if s.placements]) != Grid(puzzle).cells.count(0):
            continue
        grade = hodoku_grade(s.technique for s in steps)
        assert grade.level == level == "Easy"
        graded += 1
        same_score += grade.score == int(score)
    assert graded > 40 and same_score > graded // 3
