"""Unique rectangles and loops, the BUG, aligned pair and triple exclusion.

Every step goes through the oracle. Focused tests pin the exact step found on a puzzle, after
singles, for each type (the puzzles come from HoDoKu's exemplars and from public collections);
HoDoKu's exemplar labels and Sudoku Explainer's ratings of the dev file anchor them. Aligned
exclusion is also checked against a literal transcription of Sudoku Explainer's search, run on
positions reached along solve paths. The sweeps check that no step is ever wrong.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from itertools import combinations, product

import pytest

import sudokit
from sudokit import Grid, Shape
from sudokit.logic import SE_ORDER, Candidates, Step, Technique, apply, select, solve_path
from sudokit.logic._state import bits, house_order
from sudokit.logic.bug import find_bug
from sudokit.logic.exclusion import (
    find_aligned_pair_exclusions,
    find_aligned_triple_exclusions,
)
from sudokit.logic.uniqueness import find_unique_loops, unique_loop_rating

from oracle import checked_path, data_lines
from pyref.uniqueness import small_unions

T = Technique
MINE: tuple[Technique, ...] = (
    T(
        "unique-rectangle",
        "Unique rectangle",
        4.5,
        find_unique_loops,
        steps=("unique-rectangle", "unique-loop"),
    ),
    T("bug", "Bivalue universal grave", 5.6, find_bug),
    T("aligned-pair-exclusion", "Aligned pair exclusion", 6.2, find_aligned_pair_exclusions),
    T("aligned-triple-exclusion", "Aligned triple exclusion", 7.5, find_aligned_triple_exclusions),
)
#: Singles, then this family: the fixed list the focused tests use.
SINGLES_AND_MINE: tuple[Technique, ...] = (*select(["singles"]), *MINE)


def se_list() -> list[Technique]:
    """Whatever SE_ORDER holds below the chains (6.5), with this family slotted in by rating."""
    out = [t for t in SE_ORDER if t.rating < 6.5]
    wired = {t.find for t in out}
    for mine in MINE:
        if mine.find in wired:
            continue
        at = next((i for i, t in enumerate(out) if t.rating >= mine.rating), len(out))
        out.insert(at, mine)
    return out


def se_combinations(m: int, k: int) -> list[tuple[int, ...]]:
    """The ``k``-subsets of ``range(m)`` in SE's ``Permutations`` order (increasing bitmask).

    Like the original, there are none at all when ``m`` is 0.
    """
    if m == 0:
        return []
    return sorted(combinations(range(m), k), key=lambda c: sum(1 << i for i in c))


def first_step(
    puzzle: str, technique: str, kind: object = None, rating: float | None = None
) -> tuple[int, Step]:
    """The first step of ``technique`` (type, rating) on the checked singles-and-family path."""
    steps = checked_path(Grid(puzzle), techniques=SINGLES_AND_MINE)
    for i, s in enumerate(steps):
        if s.technique != technique or (kind is not None and s.detail("type") != kind):
            continue
        if rating is None or s.rating == rating:
            return i, s
    raise AssertionError(f"no {technique} step in the path of {puzzle}")


def names(shape: Shape, pairs: tuple[tuple[int, int], ...]) -> str:
    return " ".join(f"{shape.cell_name(c)}-{d}" for c, d in pairs)


# -- helpers and ratings ---------------------------------------------------------------------


def test_se_combinations_follow_permutations_order() -> None:
    assert se_combinations(5, 3)[:5] == [(0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3), (0, 1, 4)]
    assert se_combinations(3, 0) == [()]
    assert se_combinations(0, 0) == []  # as SE's Permutations: nothing at all


def test_small_unions_keep_se_order() -> None:
    """The pruned subset search finds what SE's full enumeration would keep, in its order."""
    rng = random.Random(7)
    for _ in range(200):
        size = rng.randint(0, 9)
        items = [(i + rng.randint(0, 1) * 10, rng.getrandbits(9)) for i in range(size)]
        k, limit, start = (
            rng.randint(0, 4),
            rng.randint(1, 7),
            rng.getrandbits(9) & rng.getrandbits(9),
        )
        expected = []
        for pick in sorted(combinations(items, k), key=lambda c: sum(1 << i for i, _ in c)):
            union = start
            for _, mask in pick:
                union |= mask
            if union.bit_count() <= limit:
                expected.append((tuple(i for i, _ in pick), union))
        assert small_unions(items, k, limit, start) == expected


def test_house_order_is_box_row_column() -> None:
    order = house_order(Shape(3, 3))[40]  # r5c5
    assert order[:8] == (30, 31, 32, 39, 41, 48, 49, 50)  # box 5, row by row
    assert order[8:14] == (36, 37, 38, 42, 43, 44)  # the rest of row 5
    assert len(order) == 20


def test_unique_loop_ratings() -> None:
    # SE's UniqueLoopHint: +0.1 from 6 cells, +0.2 from 8, and +0.3 more from 10.
    got = {size: round(unique_loop_rating(size), 1) for size in (4, 6, 8, 10, 12, 14)}
    assert got == {4: 4.5, 6: 4.6, 8: 4.7, 10: 5.0, 12: 5.0, 14: 5.0}


# -- focused steps ---------------------------------------------------------------------------

# (puzzle, technique, type, index of the step on the singles-and-family path, rating, loop or
# base cells, eliminations)
FOCUSED = [
    (
        "...3..1.8.5.4...9.39..6...7.342..............96..3...1..871...5.....2....4.6.8...",
        "unique-rectangle",
        1,
        None,
        4.5,
        "r2c9 r2c7 r9c7 r9c9",
        "r2c7-2 r2c7-3",
    ),
    (
        ".9...2...6..4....3..5..628....8....4.1...........27........341...65.43.2..9.1..76",
        "unique-rectangle",
        2,
        None,
        4.5,
        "r9c1 r9c2 r3c2 r3c1",
        "r1c1-7 r1c3-7 r2c2-7 r2c3-7 r3c4-7 r3c9-7",
    ),
    (
        ".8..3.1.......23....64...753.9.2.....2.5.1.8...7.4...27..6...........8..54......7",
        "unique-rectangle",
        3,
        None,
        4.7,  # a naked triple with the pseudo-cell: 4.5 + 0.2
        "r4c2 r6c2 r6c8 r4c8",
        "r8c8-4 r8c8-9 r9c8-6 r9c8-9",
    ),
    (
        ".4...6.2...7.......9.8.561.4569........3..........4..61.56....3...5..4...7..3....",
        "unique-rectangle",
        3,
        None,
        4.5,  # a hidden pair with the pseudo-cell: one set cell besides the loop, +0.0
        "r3c1 r3c3 r8c3 r8c1",
        "r8c9-1 r8c9-8 r8c9-9",
    ),
    (
        "3.9.1.........2...72156......8....5.16.....73.4....9......98312...1.........5.6.8",
        "unique-rectangle",
        3,
        11,
        4.7,  # a hidden quad: three set cells besides the loop, 4.5 + 0.2
        "r8c7 r8c9 r1c9 r1c7",
        "r2c7-4 r2c7-8 r2c9-4 r2c9-6 r3c9-4",
    ),
    (
        "9...7.....2......4.57..9.8.......3.6..4.6.1.........4.84.9...5.57......3.695.....",
        "unique-rectangle",
        3,
        22,
        4.8,  # a naked quad: 4.5 + 0.3
        "r4c8 r5c8 r5c1 r4c1",
        "r4c3-1 r4c3-8 r6c1-1 r6c1-3 r6c3-1 r6c3-3",
    ),
    (
        "............3.9........7149.......31.2...89.4.96.7...8..8.......326........9..72.",
        "unique-rectangle",
        4,
        None,
        4.5,
        "r9c2 r9c3 r2c3 r2c2",
        "r2c2-1 r2c3-1",
    ),
    (
        "51.........67..4..42..36........49.2.7.....8.6.59........61..98..1..72.........51",
        "unique-loop",
        1,
        22,
        4.7,
        "r2c1 r2c2 r4c2 r4c3 r9c3 r9c4 r8c4 r8c1",
        "r9c4-3 r9c4-8",
    ),
    (
        "6....2...3751...........68..1..95...4.......8...72..3..39...........9571...2....9",
        "unique-loop",
        2,
        24,
        4.6,
        "r2c7 r2c9 r7c9 r7c8 r4c8 r4c7",
        "r9c8-6",
    ),
    (
        "....4..3.........5...28......68...2..4....6..5.9.74.8...75....64...963..3.......2",
        "unique-loop",
        3,
        33,
        4.7,
        "r5c8 r5c9 r3c9 r3c7 r9c7 r9c8",
        "r3c1-1",
    ),
    (
        ".6......1.5..3....2..516.34.483.....9....5.2....89......3.....2.........17..5.96.",
        "unique-loop",
        4,
        33,
        4.6,
        "r5c7 r5c9 r9c9 r9c6 r8c6 r8c7",
        "r8c6-8 r8c7-8",
    ),
    (
        "....13......2....93.184.2..968....2..379...1......4...........8..9.35.7..1..6....",
        "bug",
        1,
        None,
        5.6,
        None,
        None,
    ),
    (
        "12.5....9.......5....2..3.83.97.....4...1...3.....97.69.7..5....4.......8....2.31",
        "bug",
        2,
        44,
        5.7,
        "r2c5 r8c5",
        "r1c5-3 r7c5-3",
    ),
    (
        "..........3.1..8699.6.2...16...47..8..........28.9...7.....1....83..4....7.....2.",
        "bug",
        3,
        44,
        5.8,
        "r9c7 r9c9",
        "r9c6-9",
    ),
    (
        ".3.....1.......7.2...7...........5..2.6..5.9..9813..273..87...5..23.....1...5.36.",
        "bug",
        3,
        37,
        6.0,  # a naked quad with the BUG cells: 5.7 + 0.3
        "r1c4 r2c4 r3c6",
        "r1c6-2 r2c6-9",
    ),
    (
        ".....91..8...5......4..3.5.4....8..9..3...5..1..7....4.9.5..8......1...7..72.....",
        "bug",
        4,
        48,
        5.7,
        "r5c2 r6c2",
        "r5c2-6 r6c2-2",
    ),
    (
        "....1......13.26...276.851..48...95.9.......1.16...34..694.318...49.67......5....",
        "aligned-pair-exclusion",
        None,
        3,
        6.2,
        "r4c6 r5c6",
        "r5c6-7",
    ),
    (
        ".8..1......5....3.......4.....6.5.7.89....2.....3.....2.....1.9..67........4.....",
        "aligned-triple-exclusion",
        None,
        1,
        7.5,
        "r5c3 r5c9 r5c5",
        "r5c3-4 r5c3-7 r5c9-3 r5c9-4",
    ),
]


@pytest.mark.parametrize(
    ("puzzle", "technique", "kind", "index", "rating", "cells", "elims"), FOCUSED
)
def test_focused_step(
    puzzle: str,
    technique: str,
    kind: int | None,
    index: int | None,
    rating: float,
    cells: str | None,
    elims: str | None,
) -> None:
    i, step = first_step(puzzle, technique, kind, rating)
    if index is not None:
        assert i == index
    if cells is not None:
        assert " ".join(step.name(c) for c in step.cells) == cells
    if elims is not None:
        assert names(step.shape, step.eliminations) == elims
    assert step.text.startswith(
        {
            "unique-rectangle": f"Unique rectangle type {kind} on ",
            "unique-loop": f"Unique loop type {kind} on ",
            "bug": f"BUG type {kind}: ",
            "aligned-pair-exclusion": "Aligned pair exclusion on ",
            "aligned-triple-exclusion": "Aligned triple exclusion on ",
        }[technique]
    )


def test_texts() -> None:
    _, ur = first_step(FOCUSED[0][0], "unique-rectangle", 1)
    assert ur.text == (
        "Unique rectangle type 1 on 2/3 in r2c9, r2c7, r9c7, r9c9: r2c7 must avoid 2 and 3 "
        "(else two solutions); remove 2 from r2c7; remove 3 from r2c7"
    )
    _, ur4 = first_step(FOCUSED[6][0], "unique-rectangle", 4)
    assert "4 in row 2 is in r2c3 or r2c2, so neither can be 1" in ur4.text
    _, bug = first_step(FOCUSED[15][0], "bug", 4)
    assert bug.text.startswith("BUG type 4: 8 in box 4 is in r5c2, r6c2")
    _, ape = first_step(FOCUSED[16][0], "aligned-pair-exclusion")
    assert "r4c4 (1/2), r9c6 (1/7)" in ape.text and ape.text.endswith("remove 7 from r5c6")


def exemplars(section: str) -> Iterator[tuple[str, str]]:
    """(puzzle, HoDoKu's codes) of an exemplar section, for puzzles solved by singles first."""
    inside = False
    for line in data_lines("hodoku_exemplars.txt"):
        if line.startswith("#"):
            inside = line.startswith(section)
            continue
        if inside and "#" in line and not line.startswith(":"):
            puzzle, codes = (part.strip() for part in line.split("#", 1))
            if codes.startswith("s "):
                yield puzzle, codes.split()[1]


@pytest.mark.parametrize(("section", "kind"), [("#0600", 1), ("#0601", 2), ("#0603", 4)])
def test_hodoku_exemplars(section: str, kind: int) -> None:
    """After singles, the first step is the exemplar's rectangle: same type, same count."""
    cases = list(exemplars(section))
    assert cases
    for puzzle, code in cases:
        steps = checked_path(Grid(puzzle), techniques=SINGLES_AND_MINE)
        step = next(s for s in steps if s.rating > 2.3)
        assert step.technique == "unique-rectangle" and step.detail("type") == kind, puzzle
        assert step.rating == 4.5
        assert f"({len(step.eliminations)})" in code, (puzzle, code)


def test_hodoku_bug_exemplars() -> None:
    cases = list(exemplars("#0610"))
    assert len(cases) == 5
    for puzzle, code in cases:
        steps = checked_path(Grid(puzzle), techniques=SINGLES_AND_MINE)
        step = next(s for s in steps if s.rating > 2.3)
        assert (step.technique, step.detail("type"), step.rating) == ("bug", 1, 5.6), puzzle
        assert code == f"bug1({len(step.eliminations)})"


def test_dev_rows_solved_with_singles_and_this_family_match_se() -> None:
    """Dev puzzles that singles, uniqueness and BUG solve: SE's ER, EP and ED exactly."""
    techniques = SINGLES_AND_MINE[:-2]
    checked = 0
    for line in data_lines("se_rated_dev.csv")[1:]:
        puzzle, er, ep, ed = line.split(",")[:4]
        if not 4.5 <= float(er) <= 6.2:
            continue
        steps = checked_path(Grid(puzzle), techniques=techniques)
        if not steps[-1:] or not solve_path(Grid(puzzle), techniques=techniques).solved:
            continue
        first_placement = next(i for i, s in enumerate(steps) if s.placements)
        assert max(s.rating for s in steps) == float(er), puzzle
        assert max(s.rating for s in steps[: first_placement + 1]) == float(ep), puzzle
        assert steps[0].rating == float(ed), puzzle
        checked += 1
    assert checked >= 5


def test_dev_rows_rated_as_se_with_the_basic_techniques() -> None:
    """With SE_ORDER's techniques below the chains, rows where this family sets SE's ER."""
    techniques = se_list()
    if len(techniques) < 15:
        pytest.skip("the basic techniques are not in SE_ORDER yet")
    ratings = {4.5, 4.6, 4.7, 4.8, 5.6, 5.7, 5.8, 5.9, 6.0, 6.2}
    checked = 0
    for line in data_lines("se_rated_dev.csv")[1:]:
        puzzle, er, ep, ed = line.split(",")[:4]
        if float(er) not in ratings:
            continue
        steps = checked_path(Grid(puzzle), techniques=techniques)
        assert max(s.rating for s in steps) == float(er), puzzle
        checked += 1
    assert checked >= 15


def test_finders_leave_the_state_alone() -> None:
    for puzzle, *_ in FOCUSED[:3]:
        state = Candidates.from_grid(Grid(puzzle))
        for step in solve_path(Grid(puzzle), techniques=select(["singles"])).steps:
            apply(state, step)
        before = (state.cand.copy(), state.where.copy(), state.values.copy())
        for technique in MINE:
            list(technique.find(state))
        assert (state.cand, state.where, state.values) == before


# -- aligned exclusion against a literal transcription of Sudoku Explainer --------------------


def se_aligned_exclusion(state: Candidates, degree: int) -> Iterator[tuple[tuple[int, ...], str]]:
    """SE's AlignedPairExclusion / AlignedExclusion(3), transcribed literally (slow)."""
    cand = state.cand
    house = house_order(state.shape)
    bases: list[int] = []
    excluders: dict[int, list[int]] = {}
    for c in range(state.shape.size):
        if cand[c].bit_count() >= 2:
            sizes = [cand[e].bit_count() for e in house[c]]
            found = [e for e, k in zip(house[c], sizes, strict=True) if 2 <= k <= degree]
            if 1 not in sizes and found:
                bases.append(c)
                excluders[c] = found
    seen = set()
    for i0, i1 in se_combinations(len(bases), 2):
        c0, c1 = bases[i0], bases[i1]
        tails: list[tuple[int, ...]] = [()]
        if degree == 3:
            twin = [t for t in dict.fromkeys(excluders[c0] + excluders[c1]) if t in bases]
            twin = [t for t in twin if t not in (c0, c1)]
            tails = [tuple(twin[i] for i in pick) for pick in se_combinations(len(twin), 1)]
        for tail in tails:
            cells = (c0, c1, *tail)
            common = [e for e in excluders[c0] if all(e in excluders[c] for c in cells[1:])]
            if len(common) < 2:
                continue
            allowed = []
            for combo in product(*(list(bits(cand[c])) for c in cells)):
                ok = not any(
                    combo[i] == combo[j] and cells[j] in house[cells[i]]
                    for i, j in combinations(range(degree), 2)
                )
                used = 0
                for p in combo:
                    used |= 1 << p
                if ok and not any(cand[e] & ~used == 0 for e in common):
                    allowed.append(combo)
            elims = tuple(
                sorted(
                    (c, p + 1)
                    for i, c in enumerate(cells)
                    for p in bits(cand[c])
                    if all(a[i] != p for a in allowed)
                )
            )
            key = (tuple(sorted(cells)), elims)
            if elims and key not in seen:
                seen.add(key)
                yield cells, names(state.shape, elims)


def positions(puzzles: list[str], per_puzzle: int) -> Iterator[Candidates]:
    """Positions along the singles-and-family paths where aligned exclusion is searched."""
    for puzzle in puzzles:
        state = Candidates.from_grid(Grid(puzzle))
        taken = 0
        for step in solve_path(Grid(puzzle), techniques=SINGLES_AND_MINE).steps:
            if step.rating >= 6.2 and taken < per_puzzle:
                yield state.copy()
                taken += 1
            apply(state, step)
        if taken < per_puzzle:
            yield state  # where the path got stuck


def compare_with_se(puzzles: list[str], per_puzzle: int, triples: bool) -> int:
    compared = 0
    for state in positions(puzzles, per_puzzle):
        for degree, find in (
            (2, find_aligned_pair_exclusions),
            (3, find_aligned_triple_exclusions),
        ):
            if degree == 3 and not triples:
                continue
            ours = [(s.cells, names(s.shape, s.eliminations)) for s in find(state)]
            assert ours == list(se_aligned_exclusion(state, degree))
            compared += 1
    return compared


def test_aligned_exclusion_matches_se_literally() -> None:
    puzzles = [row[0] for row in FOCUSED[-2:]]
    assert compare_with_se(puzzles, 1, triples=True) >= 4


@pytest.mark.slow
def test_aligned_exclusion_matches_se_literally_many() -> None:
    puzzles = data_lines("top1465.txt", 40)
    assert compare_with_se(puzzles, 3, triples=True) >= 80


# -- sweeps: never a wrong deduction --------------------------------------------------------


def dev_puzzles(max_er: float) -> list[str]:
    rows = [line.split(",") for line in data_lines("se_rated_dev.csv")[1:]]
    return [row[0] for row in rows if float(row[1]) <= max_er]


def test_dev_puzzles_never_wrong() -> None:
    """Every dev puzzle up to 6.2, on the SE-ordered list (this family slotted in)."""
    puzzles = dev_puzzles(6.2)
    assert len(puzzles) > 200
    techniques = se_list()
    for puzzle in puzzles:
        checked_path(Grid(puzzle), techniques=techniques)


@pytest.mark.slow
def test_dev_puzzles_never_wrong_with_singles_and_this_family() -> None:
    """With only singles before them, this family meets many more positions."""
    for puzzle in dev_puzzles(6.2):
        checked_path(Grid(puzzle), techniques=SINGLES_AND_MINE)


@pytest.mark.slow
def test_top1465_never_wrong() -> None:
    techniques = se_list()
    for puzzle in data_lines("top1465.txt", 300):
        checked_path(Grid(puzzle), techniques=techniques)
        checked_path(Grid(puzzle), techniques=SINGLES_AND_MINE)


def test_top1465_sample_never_wrong() -> None:
    for puzzle in data_lines("top1465.txt", 25):
        checked_path(Grid(puzzle), techniques=SINGLES_AND_MINE)


@pytest.mark.parametrize(("shape", "seeds"), [(Shape(2, 4), 20), (Shape(4, 2), 20)])
def test_other_shapes_never_wrong(shape: Shape, seeds: int) -> None:
    used = set()
    for seed in range(seeds):
        p = sudokit.generate(shape=shape, seed=seed, symmetry="none", clues=None)
        for step in checked_path(p.puzzle, p.solution, techniques=SINGLES_AND_MINE):
            used.add(step.technique)
    assert "unique-rectangle" in used


@pytest.mark.slow
@pytest.mark.parametrize("shape", [Shape(2, 3), Shape(3, 2), Shape(3, 4), Shape(4, 3)])
def test_other_shapes_never_wrong_many(shape: Shape) -> None:
    for seed in range(40):
        p = sudokit.generate(shape=shape, seed=seed, symmetry="none", clues=None)
        checked_path(p.puzzle, p.solution, techniques=SINGLES_AND_MINE)
        checked_path(p.puzzle, p.solution, techniques=se_list())
