"""The logic engine in C against its pure-Python reference (tests/logic/pyref/), step by step.

For every technique the C engine runs, on thousands of positions (puzzles from the shared
corpora and every position along their solve paths, with candidates thinned at random so
patterns show up that paths rarely reach), the C finder must yield the same steps, in the same
order, with the same rating, placements, eliminations, cells, units, digits, links, complexity
and info, as the reference finder.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from functools import cache

import pytest

import sudokit
from sudokit import Grid, Shape, _logic, random_grid
from sudokit.logic import (
    ALL_ORDER,
    SE_ORDER,
    TECHNIQUES,
    Candidates,
    PathEnd,
    Step,
    apply,
    next_step,
    run_path,
    solve_steps,
)
from sudokit.logic._native import IN_C, finder

from oracle import data_lines
from pyref import (
    als,
    bug,
    chains,
    coloring,
    exclusion,
    fish,
    intersections,
    killer,
    patterns,
    singles,
    subsets,
    uniqueness,
    wings,
)

Finder = Callable[[Candidates], Iterable[Step]]

#: Technique slug -> the reference finder. Each family adds its own when it moves into C.
REFERENCE: dict[str, Finder] = {
    # killer's find nothing without cages: test_killer_native.py compares them on killers
    **{
        slug: getattr(killer, "find_" + slug.replace("-", "_")) for slug in _logic.KILLER_TECHNIQUES
    },
    "full-house": singles.find_full_houses,
    "hidden-single": singles.find_hidden_singles,
    "naked-single": singles.find_naked_singles,
    "direct-intersections": intersections.find_direct_intersections,
    "intersections": intersections.find_intersections,
    "unique-rectangle": uniqueness.find_unique_loops,
    "bug": bug.find_bug,
    "locked-subsets": patterns.find_locked_subsets,
    "skyscraper": patterns.find_skyscrapers,
    "two-string-kite": patterns.find_two_string_kites,
    "turbot-fish": patterns.find_turbot_fish,
    "empty-rectangle": patterns.find_empty_rectangles,
    "w-wing": patterns.find_w_wings,
    "wxyz-wing": patterns.find_wxyz_wings,
    "finned-x-wing": patterns.find_finned_x_wings,
    "sashimi-x-wing": patterns.find_sashimi_x_wings,
    "finned-swordfish": patterns.find_finned_swordfish,
    "sashimi-swordfish": patterns.find_sashimi_swordfish,
    "finned-jellyfish": patterns.find_finned_jellyfish,
    "sashimi-jellyfish": patterns.find_sashimi_jellyfish,
    "simple-coloring": coloring.find_simple_colors,
    "remote-pair": coloring.find_remote_pairs,
    "x-chain": coloring.find_x_chains,
    "xy-chain": coloring.find_xy_chains,
    "direct-hidden-pair": subsets.find_direct_hidden_pairs,
    "direct-hidden-triple": subsets.find_direct_hidden_triples,
    "naked-pair": subsets.find_naked_pairs,
    "naked-triple": subsets.find_naked_triples,
    "naked-quad": subsets.find_naked_quads,
    "hidden-pair": subsets.find_hidden_pairs,
    "hidden-triple": subsets.find_hidden_triples,
    "hidden-quad": subsets.find_hidden_quads,
    "x-wing": fish.find_x_wings,
    "swordfish": fish.find_swordfish,
    "jellyfish": fish.find_jellyfish,
    "xy-wing": wings.find_xy_wings,
    "xyz-wing": wings.find_xyz_wings,
    "aligned-pair-exclusion": exclusion.find_aligned_pair_exclusions,
    "aligned-triple-exclusion": exclusion.find_aligned_triple_exclusions,
    "als-xz": als.find_als_xz,
    "forcing-chains": chains.find_forcing_chains,
    "nishio": chains.find_nishio,
    "multiple-forcing-chains": chains.find_multiple_forcing_chains,
    "dynamic-forcing-chains": chains.find_dynamic_forcing_chains,
    "dynamic-forcing-chains-plus": chains.find_dynamic_plus,
    **{f"nested-forcing-chains-{level}": chains.find_nested(level) for level in (2, 3, 4, 5)},
}
#: The chain producers (``best``: each yields its one cheapest step); their reference is slow,
#: so they are compared on positions of their own (test_chain_steps_*), not on the corpus.
CHAINS = frozenset(slug for slug in REFERENCE if "chains" in slug or slug == "nishio")


#: Techniques with long step lists (ALS-XZ: hundreds a position, every ALS pair with a removal)
#: are compared on every k-th corpus position only, to keep each test under 20 s.
CORPUS_STRIDE: dict[str, int] = {"als-xz": 16}


def fields(step: Step) -> tuple[object, ...]:
    return (
        step.technique,
        step.rating,
        step.placements,
        step.eliminations,
        step.cells,
        step.units,
        step.digits,
        tuple(tuple(link) for link in step.links),
        step.complexity,
        step.info,
    )


def thinned(state: Candidates, rng: random.Random, solution: Grid, keep: float) -> Candidates:
    """A copy of ``state`` with some wrong candidates removed (the solution's stay)."""
    out = state.copy()
    for cell in out.empty_cells():
        for d0 in range(out.n):
            digit = d0 + 1
            if out.cand[cell] >> d0 & 1 and solution[cell] != digit and rng.random() > keep:
                out.eliminate(cell, digit)
    return out


def positions(puzzles: Iterable[str], seed: int, per_path: int = 6) -> Iterator[Candidates]:
    """Positions along each puzzle's SE path, some of them thinned."""
    rng = random.Random(seed)
    for text in puzzles:
        grid = Grid(text)
        solution = sudokit.solve(grid)
        assert solution is not None
        state = Candidates.from_grid(grid)
        yield state.copy()
        path_states = [state.copy()]
        for _ in solve_steps(state, in_place=True):
            path_states.append(state.copy())
        for s in rng.sample(path_states, min(per_path, len(path_states))):
            yield s
            yield thinned(s, rng, solution, rng.choice((0.5, 0.8, 0.95)))


def compare(state: Candidates, slug: str) -> None:
    c_steps = [fields(s) for s in finder(slug)(state)]
    py_steps = [fields(s) for s in REFERENCE[slug](state)]
    assert c_steps == py_steps, f"{slug} differs on {state.to_grid().to_line()} {state.cand}"


PORTED = sorted((set(REFERENCE) - CHAINS) & IN_C)


def test_every_technique_in_c_has_a_reference() -> None:
    assert set(REFERENCE) >= IN_C, sorted(IN_C - set(REFERENCE))


def test_the_technique_table_is_the_c_engines() -> None:
    """Each technique's slug, name, rating, ``best`` and place in Sudoku Explainer's order come
    from the C engine's table alone; Python's adds the finders, step names and groups."""
    rows = _logic.TECHNIQUES
    assert [t.slug for t in SE_ORDER] == [slug for slug, _, _, _, se, _ in rows if se]
    assert {t.slug for t in ALL_ORDER} == {row[0] for row in rows}
    for slug, name, rating, best, _, in_c in rows:
        t = TECHNIQUES[slug]
        assert (t.name, t.rating, t.best) == (name, rating, best), slug
        assert in_c == (slug in IN_C), slug
    assert TECHNIQUES["nested-forcing-chains-5"].name == "Nested forcing chains, level 5"
    assert TECHNIQUES["nested-forcing-chains-5"].rating == 11.0


@cache
def corpus_positions() -> list[Candidates]:
    lines = data_lines("top1465.txt", 40) + data_lines("qqwing_expert.txt", 40)
    return list(positions(lines, seed=1))


@pytest.mark.parametrize("slug", PORTED)
def test_same_steps_on_corpus_positions(slug: str) -> None:
    for state in corpus_positions()[:: CORPUS_STRIDE.get(slug, 1)]:
        compare(state, slug)


def planted(shape: Shape, rng: random.Random) -> Candidates:
    """A random position with a naked set, hidden set or fish of size 2..4 planted in it.

    The solution's candidates stay; only wrong ones are removed, as a player's pencil marks
    might be. Quads and jellyfish are rare along solve paths (a 9x9 hidden quad needs a whole
    empty unit), so these give the rarer subsets and fish their cases.
    """
    n = shape.n
    solution = random_grid(shape, seed=rng.randrange(1 << 30))
    cells = list(solution.cells)
    kind, k = rng.choice(("naked", "hidden", "fish")), rng.choice((2, 3, 4, 4))
    unit, d = shape.units[rng.randrange(3 * n)], rng.randrange(1, n + 1)
    for c in rng.sample(range(shape.size), int(shape.size * rng.choice((0.55, 0.7, 0.85)))):
        cells[c] = 0
    for c in range(shape.size):
        # a hidden set needs its unit empty; a fish is sought only for a digit with 2k places
        if (kind == "hidden" and c in unit) or (kind == "fish" and solution[c] == d):
            cells[c] = 0
    state = Candidates.from_grid(Grid.unchecked(shape, bytes(cells)))
    empty = [c for c in unit if not cells[c]]
    if kind == "fish":
        # k base lines whose copies of d lie in k cover lines: d leaves the rest of the bases
        bases, by_row = rng.sample(range(n), k), rng.random() < 0.5
        base_of, cover_of = (shape.row_of, shape.col_of) if by_row else (shape.col_of, shape.row_of)
        covers = {
            cover_of(c) for c in range(shape.size) if solution[c] == d and base_of(c) in bases
        }
        for c in range(shape.size):
            if base_of(c) in bases and cover_of(c) not in covers:
                state.eliminate(c, d)
    elif len(empty) >= k:
        chosen = rng.sample(empty, k)
        digits = {solution[c] for c in chosen}
        for c in empty:
            for e in range(1, n + 1):
                if kind == "naked" and c in chosen and e not in digits:
                    state.eliminate(c, e)  # the chosen cells keep only their digits
                if kind == "hidden" and c not in chosen and e in digits:
                    state.eliminate(c, e)  # the digits leave the unit's other cells
    return thinned(state, rng, solution, rng.choice((0.8, 0.95, 1.0)))


#: The techniques the planted and 36x36 positions are for (subsets, fish, wings).
SETS_AND_FISH = sorted(
    IN_C
    & {
        *("direct-hidden-pair", "direct-hidden-triple", "naked-pair", "naked-triple"),
        *("naked-quad", "hidden-pair", "hidden-triple", "hidden-quad", "x-wing", "swordfish"),
        *("jellyfish", "xy-wing", "xyz-wing"),
    }
)


@cache
def planted_positions() -> list[Candidates]:
    rng, shape = random.Random(12), Shape(3, 3)
    return [planted(shape, rng) for _ in range(3000)]


@pytest.mark.parametrize("slug", SETS_AND_FISH)
def test_same_steps_on_planted_positions(slug: str) -> None:
    for state in planted_positions():
        compare(state, slug)


@pytest.mark.parametrize("shape", [Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(2, 4), Shape(4, 4)])
@pytest.mark.parametrize("slug", PORTED)
def test_same_steps_on_other_shapes(slug: str, shape: Shape) -> None:
    rng = random.Random(f"{slug}{shape}")
    for k in range(6 if shape.n < 16 else 2):
        solution = random_grid(shape, seed=rng.randrange(1 << 30))
        cells = list(solution.cells)
        for c in rng.sample(range(shape.size), int(shape.size * rng.choice((0.5, 0.65, 0.8)))):
            cells[c] = 0
        state = Candidates.from_grid(Grid.unchecked(shape, bytes(cells)))
        compare(state, slug)
        compare(thinned(state, rng, solution, 0.7), slug)
        _ = k


# -- uniqueness and BUG: positions where they have something to find ---------------------------


def exemplar_puzzles(prefix: str) -> list[str]:
    """The puzzles of HoDoKu's exemplar sections whose code starts with ``prefix``."""
    out, inside = [], False
    for line in data_lines("hodoku_exemplars.txt"):
        if line.startswith("#"):
            inside = line.startswith(prefix)
        elif inside and "#" in line and not line.startswith(":"):
            out.append(line.split("#", 1)[0].strip())
    return out


@cache
def uniqueness_positions() -> list[Candidates]:
    """Along the paths of HoDoKu's uniqueness exemplars and of SE's dev rows rated 4.4-6.2."""
    dev = [
        line.split(",")[0]
        for line in data_lines("se_rated_dev.csv")[1:]
        if 4.4 <= float(line.split(",")[1]) <= 6.2
    ]
    return list(positions(exemplar_puzzles("#06") + dev, seed=2, per_path=12))


def near_bugs(count: int, seed: int) -> Iterator[Candidates]:
    """Positions one step from a BUG: where two solutions differ (one relabelled the other's
    digits), each cell keeps both digits, an exact BUG; then a few of those cells get extra
    digits (one cell: type 1; cells of one unit, one digit or several: types 2, 3 and 4)."""
    rng = random.Random(seed)
    for _ in range(count):
        shape = rng.choice((Shape(3, 3), Shape(3, 3), Shape(2, 3), Shape(2, 4)))
        n = shape.n
        first = random_grid(shape, seed=rng.randrange(1 << 30)).cells
        moved = rng.sample(range(1, n + 1), rng.choice((2, 2, 3, 4)))
        relabel = dict(zip(moved, moved[1:] + moved[:1], strict=True))
        values = list(first)
        cand = [0] * shape.size
        for c, v in enumerate(first):
            if v in relabel:
                values[c] = 0
                cand[c] = 1 << (v - 1) | 1 << (relabel[v] - 1)
        bug = [c for c in range(shape.size) if cand[c]]
        unit = [c for c in shape.units[rng.randrange(3 * n)] if cand[c]]
        extra = rng.randrange(n)
        for c in rng.sample(unit, min(len(unit), rng.choice((1, 2, 2, 3)))):
            digits = (extra,) if rng.random() < 0.5 else rng.sample(range(n), rng.randint(1, 2))
            for d0 in digits:
                cand[c] |= 1 << d0
        if rng.random() < 0.3:
            cand[rng.choice(bug)] |= 1 << rng.randrange(n)
        yield Candidates(shape, values, cand)


@pytest.mark.parametrize("slug", sorted({"unique-rectangle", "bug"} & IN_C))
def test_same_steps_on_uniqueness_positions(slug: str) -> None:
    for state in uniqueness_positions():
        compare(state, slug)


@pytest.mark.skipif("bug" not in IN_C, reason="the BUG is not in C")
def test_same_bug_steps_near_bugs() -> None:
    # not unique loops: these positions, nearly all bivalue, make the reference's loop search
    # take minutes
    for state in near_bugs(3000, seed=3):
        compare(state, "bug")


# -- remote pairs: rare on the corpus paths (cells of one pair of digits, four or more) -------

#: Techniques the corpus positions seldom exercise -> the HoDoKu exemplar sections (by their
#: code's prefix) whose SE paths do.
EXEMPLARS: dict[str, str] = {"remote-pair": "#07"}


@cache
def exemplar_positions(prefix: str) -> list[Candidates]:
    """Up to 40 positions along the SE path of each exemplar puzzle of the sections ``prefix``,
    and as many thinned copies (the first 81 characters: the givens)."""
    return list(positions([p[:81] for p in exemplar_puzzles(prefix)], seed=5, per_path=40))


@pytest.mark.parametrize("slug", sorted(set(EXEMPLARS) & set(PORTED)))
def test_same_steps_on_exemplar_positions(slug: str) -> None:
    for state in exemplar_positions(EXEMPLARS[slug]):
        compare(state, slug)


@pytest.mark.parametrize("slug", SETS_AND_FISH)
def test_same_steps_on_36x36(slug: str) -> None:
    """The largest shape, thinned hard so that bivalue cells and digits above 30 show up."""
    rng, shape = random.Random(f"{slug}36"), Shape(6, 6)
    for _ in range(2):
        solution = random_grid(shape, seed=rng.randrange(1 << 30))
        cells = list(solution.cells)
        for c in rng.sample(range(shape.size), int(shape.size * 0.5)):
            cells[c] = 0
        state = Candidates.from_grid(Grid.unchecked(shape, bytes(cells)))
        for keep in (0.05, 0.3):
            compare(thinned(state, rng, solution, keep), slug)


# ---------------------------------------------------------------------- chains


def _dev_rows(min_er: float) -> list[str]:
    rows = [line.split(",") for line in data_lines("se_rated_dev.csv")[1:]]
    return [row[0] for row in rows if float(row[1]) >= min_er]


@cache
def chain_positions() -> list[Candidates]:
    """Positions where the chain producers have work: on the SE paths of puzzles rated 6.5 and
    up (se_rated_dev.csv, hardest_1106.csv), the state before each step rated 6.5 or more,
    and a thinned copy of some."""
    rng = random.Random(12)
    hardest = [line.split(",")[0] for line in data_lines("hardest_1106.csv")[1:]]
    puzzles = _dev_rows(6.5)[::8][:24] + hardest[:: len(hardest) // 4][:4]
    # the path up to dynamic forcing chains (+): the nested levels are slow to reach
    order = [t for t in SE_ORDER if t.rating <= 9.0]
    out: list[Candidates] = []
    for text in puzzles:
        grid = Grid(text)
        solution = sudokit.solve(grid)
        assert solution is not None
        state = Candidates.from_grid(grid)
        before = state.copy()
        for step in solve_steps(state, techniques=order, in_place=True):
            if step.rating >= 6.5:
                out.append(before)
                if rng.random() < 0.3:
                    out.append(thinned(before, rng, solution, 0.9))
            before = state.copy()
    return out


def _small_shape_positions(shapes: Iterable[Shape], per_shape: int) -> Iterator[Candidates]:
    rng = random.Random(7)
    for shape in shapes:
        for _ in range(per_shape):
            solution = random_grid(shape, seed=rng.randrange(1 << 30))
            cells = list(solution.cells)
            for c in rng.sample(range(shape.size), int(shape.size * rng.choice((0.5, 0.65)))):
                cells[c] = 0
            state = Candidates.from_grid(Grid.unchecked(shape, bytes(cells)))
            yield state
            yield thinned(state, rng, solution, 0.7)


#: How many chain positions each producer is compared on (the reference's cost decides).
CHAIN_BUDGET = {
    "forcing-chains": 40,
    "nishio": 120,
    "multiple-forcing-chains": 60,
    "dynamic-forcing-chains": 12,
    "dynamic-forcing-chains-plus": 3,
}


def compared(slug: str, states: Iterable[Candidates]) -> int:
    """How many steps the C finder of ``slug`` found on ``states``, each asserted equal to the
    pure-Python reference's."""
    found = 0
    for state in states:
        c_steps = [fields(s) for s in finder(slug)(state)]
        py_steps = [fields(s) for s in REFERENCE[slug](state)]
        assert c_steps == py_steps, f"{slug} differs on {state.to_grid().to_line()} {state.cand}"
        found += len(c_steps)
    return found


@pytest.mark.parametrize("slug", sorted(CHAIN_BUDGET))
def test_chain_steps_on_hard_positions(slug: str) -> None:
    states = chain_positions()
    step = max(1, len(states) // CHAIN_BUDGET[slug])
    assert compared(slug, states[::step][: CHAIN_BUDGET[slug]]) >= CHAIN_BUDGET[slug] // 3


@pytest.mark.parametrize("slug", sorted(CHAINS))
def test_chain_steps_on_other_shapes(slug: str) -> None:
    if "nested" in slug and not slug.endswith("-2"):
        # nesting 3..5: the reference takes seconds per position even on small grids
        shapes, per_shape = [Shape(2, 2), Shape(2, 3)], 1
    elif "nested" in slug or slug.endswith("plus"):
        shapes, per_shape = [Shape(2, 2), Shape(2, 3), Shape(3, 2)], 2
    else:
        shapes, per_shape = [Shape(2, 2), Shape(2, 3), Shape(3, 2), Shape(2, 4)], 4
    assert compared(slug, _small_shape_positions(shapes, per_shape)) > 0


@pytest.mark.slow
@pytest.mark.parametrize("slug", sorted(CHAINS))
def test_chain_steps_sweep(slug: str) -> None:
    """Every chain producer on every chain position (hours for the nested levels)."""
    compared(slug, chain_positions())


#: A row of hardest_1106.csv (ER 11.0) whose SE path takes 21 steps of nested chains level 2 and
#: 3 of level 3.
NESTED_PATHS = ["..4..3....7..8....2.81....6..3....9..8..2....1..7....3......45....8..9....9..5..8"]


@pytest.mark.parametrize("puzzle", NESTED_PATHS)
def test_path_steps_are_those_of_fresh_calls(puzzle: str) -> None:
    """A path keeps what nested chains' inner engines found from one step to the next (the
    memo in chains.c, read by every nesting level); next_step starts each call without it. The
    steps are the same."""
    end, steps = run_path(Grid(puzzle), techniques=SE_ORDER)
    assert end is PathEnd.SOLVED
    assert any(s.technique.startswith("nested") for s in steps)
    state = Candidates.from_grid(Grid(puzzle))
    for kept in steps:
        fresh = next_step(state, techniques=SE_ORDER)
        assert fresh is not None and fields(fresh) == fields(kept)
        apply(state, fresh)
