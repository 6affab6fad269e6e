"""Chains (Sudoku Explainer's Chaining producers), checked against the known solution.

Every test that runs a technique goes through the oracle. Ratings are checked against Sudoku
Explainer 1.2.1's own: the puzzles below carry their published ER, and the sweeps compare the
whole solve path's ER with ``se_rated_dev.csv``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator

import pytest

import sudokit
from sudokit import Grid, Shape, random_grid
from sudokit.logic import (
    SE_ORDER,
    TECHNIQUES,
    Candidates,
    Step,
    Technique,
    apply,
    chains,
    solve_steps,
)

from oracle import check_step, checked_path, data_lines
from pyref import chain_engine as eng
from pyref import chains as ref

Finder = Callable[[Candidates], Iterable[Step]]

#: The chaining producers and the nested levels, as wired in the technique table.
CHAIN_TECHNIQUES = tuple(
    TECHNIQUES[slug]
    for slug in (
        "forcing-chains",
        "nishio",
        "multiple-forcing-chains",
        "dynamic-forcing-chains",
        "dynamic-forcing-chains-plus",
    )
)
NESTED = tuple(TECHNIQUES[f"nested-forcing-chains-{level}"] for level in range(2, 6))


def se_order(nested: bool = False) -> list[Technique]:
    """Sudoku Explainer's order, without the nested levels unless asked for."""
    order = [t for t in SE_ORDER if t.rating < 9.5]
    return order + list(NESTED) if nested else order


def singles_and_chains() -> list[Technique]:
    singles = ("full-house", "hidden-single", "naked-single")
    return [*(TECHNIQUES[s] for s in singles if s in TECHNIQUES), *CHAIN_TECHNIQUES]


def er(steps: list[Step]) -> float:
    return max((s.rating for s in steps), default=0.0)


def _state_before(puzzle: str, technique: str, order: list[Technique]) -> tuple[Candidates, Step]:
    """The state the solve path reaches just before its first step of ``technique``."""
    state = Candidates.from_grid(Grid(puzzle))
    for step in solve_steps(state, techniques=order, in_place=True):
        if step.technique == technique:
            return state, step
    raise AssertionError(f"no {technique} step on the path of {puzzle}")


# (puzzle, Sudoku Explainer's ER, the technique of its hardest step)
RATED = [
    (
        "7.49......6184.9.7.8.1......56.7.8.........7.8.2.....492..8.64.6.8...2.9.........",
        6.6,
        "forcing-x-chain",
    ),
    (
        ".8.61.....3..5..41..1..28....7.....994.....138.....5....28..1..35..7..6.....45.3.",
        6.6,
        "y-cycle",
    ),
    (
        ".61..7......6859....42............57.47....6..8..3....7....9.3.35....4........2..",
        7.0,
        "xy-cycle",
    ),
    (
        "...........164..8.....1.724..9.73....2.1.....6879...1.196...2........67...3.....9",
        7.1,
        "forcing-chain",
    ),
    (
        ".1..39..5..2....6..972.53.........1....72....15..8..24.....2.3..234..19.7........",
        7.8,
        "nishio-forcing-chain",
    ),
    (
        "......9...461..7.3.5.....4..65.....2.1.68...9..927...4.98........75.31.85.1......",
        8.3,
        "cell-forcing-chain",
    ),
    (
        ".4.59.2...2...1.358.........8..1...36..3.2..43...4..9.........226.7...5...5.28.7.",
        8.2,
        "region-forcing-chain",
    ),
    (
        "....52..496.14..2.3..........34.58.......1..68...6.........753.1.......7.9....4..",
        8.7,
        "dynamic-forcing-chain",
    ),
]


@pytest.mark.parametrize(("puzzle", "rating", "technique"), RATED)
def test_each_producer_matches_sudoku_explainer(puzzle: str, rating: float, technique: str) -> None:
    steps = checked_path(Grid(puzzle), techniques=se_order())
    hardest = max(steps, key=lambda s: s.rating)
    assert hardest.technique == technique
    assert er(steps) == rating
    assert hardest.complexity >= 4 and hardest.links


def test_found_steps_pass_the_oracle_one_by_one() -> None:
    finders: list[Finder] = [
        chains.find_forcing_chains,
        chains.find_nishio,
        chains.find_multiple_forcing_chains,
        chains.find_dynamic_forcing_chains,
        chains.find_dynamic_plus,
    ]
    puzzle = RATED[-1][0]
    solution = sudokit.solve(Grid(puzzle))
    assert solution is not None
    state, _ = _state_before(puzzle, "dynamic-forcing-chain", se_order())
    for find in finders:
        for step in find(state):
            check_step(step, solution, state)
            assert step.rating >= 6.5 and step.complexity > 0
    every = ref.chain_steps(state, "dynamic")
    assert every and [s.rating for s in every] == sorted(s.rating for s in every)
    for step in every:
        check_step(step, solution, state)


def test_texts_and_links() -> None:
    state, step = _state_before(RATED[0][0], "forcing-x-chain", se_order())
    assert step.rating == 6.6 and step.complexity == 6
    text = step.text
    assert text.startswith("Forcing X-chain (the assumption leads to its own negation): (")
    assert "=(" in text and "-(" in text and "=> " in text
    strong = [link for link in step.links if link.strong]
    weak = [link for link in step.links if not link.strong]
    assert len(strong) + len(weak) == step.complexity - 1
    assert all(link.digit == link.digit2 for link in step.links)  # an X-chain: one digit
    (cycle_state, cycle) = _state_before(RATED[1][0], "y-cycle", se_order())
    assert cycle.text.startswith("Y-cycle (a closed loop): ")
    assert cycle.eliminations and not cycle.placements


#: Each runtime finder (the C engine) and its pure-Python reference (tests/logic/pyref).
PAIRS: dict[str, tuple[Finder, Finder]] = {
    "forcing": (chains.find_forcing_chains, ref.find_forcing_chains),
    "nishio": (chains.find_nishio, ref.find_nishio),
    "multiple": (chains.find_multiple_forcing_chains, ref.find_multiple_forcing_chains),
    "dynamic": (chains.find_dynamic_forcing_chains, ref.find_dynamic_forcing_chains),
    "plus": (chains.find_dynamic_plus, ref.find_dynamic_plus),
}


def _fields(steps: Iterable[Step]) -> list[tuple[object, ...]]:
    return [
        (
            s.technique,
            s.rating,
            s.placements,
            s.eliminations,
            s.cells,
            s.units,
            s.digits,
            tuple(tuple(link) for link in s.links),
            s.complexity,
            s.info,
        )
        for s in steps
    ]


def _same(state: Candidates, producers: Iterable[str]) -> None:
    for name in producers:
        fast, slow = PAIRS[name]
        assert _fields(fast(state)) == _fields(slow(state)), name


@pytest.mark.parametrize(
    ("case", "producers"),
    [
        pytest.param(4, ("forcing", "nishio", "multiple"), id="static"),
        pytest.param(6, ("dynamic", "plus"), id="dynamic", marks=pytest.mark.slow),
    ],
)
def test_c_engine_matches_the_python_reference(case: int, producers: tuple[str, ...]) -> None:
    for puzzle, _, technique in RATED[case : case + 1]:
        state, _ = _state_before(puzzle, technique, se_order())
        _same(state, producers)


def test_length_bonus() -> None:
    bonus = [round(eng.length_bonus(c), 1) for c in (6, 7, 8, 9, 10, 11, 14, 15, 18, 19, 26, 27)]
    assert bonus == [0.0, 0.1, 0.1, 0.2, 0.2, 0.3, 0.3, 0.4, 0.4, 0.5, 0.5, 0.6]
    # Sudoku Explainer sums floats: an X-chain at 6.6 + 0.6 sorts before a 7.2 mixed chain.
    assert 6.6 + eng.length_bonus(27) < 7.0 + eng.length_bonus(9)


@pytest.mark.parametrize("seed", range(4))
def test_other_shapes_through_the_oracle(seed: int) -> None:
    for shape in (Shape(2, 3), Shape(3, 2), Shape(2, 4)):
        generated = sudokit.generate(shape=shape, seed=seed)
        steps = checked_path(generated.puzzle, generated.solution, techniques=singles_and_chains())
        assert Candidates.from_grid(generated.puzzle).shape == shape
        assert steps


@pytest.mark.parametrize(
    "producers",
    [
        pytest.param(("forcing", "multiple"), id="static"),
        pytest.param(("dynamic", "plus"), id="dynamic", marks=pytest.mark.slow),
    ],
)
def test_other_shapes_c_matches_python(producers: tuple[str, ...]) -> None:
    for seed in range(3):
        generated = sudokit.generate(shape=Shape(2, 3), seed=seed)
        _same(Candidates.from_grid(generated.puzzle), producers)


@pytest.mark.parametrize("shape", [Shape(4, 4), Shape(4, 5)], ids=str)
def test_both_sides_of_the_bit_set_limit_match_python(shape: Shape) -> None:
    """Grids up to 4096 candidates (16x16) intersect closures and filter reductions as bit sets;
    larger ones (20x20 here) keep the list path. Both against the reference, on positions
    thinned to a few candidates a cell (wrong ones only), so that the reference is quick."""
    rng = random.Random(f"bits{shape}")
    solution = random_grid(shape, seed=rng.randrange(1 << 30))
    cells = list(solution.cells)
    for c in rng.sample(range(shape.size), shape.size // 2):
        cells[c] = 0
    state = Candidates.from_grid(Grid.unchecked(shape, bytes(cells)))
    found = 0
    for keep in (0.05, 0.15):
        thin = state.copy()
        for cell in thin.empty_cells():
            for digit in range(1, thin.n + 1):
                wrong = solution[cell] != digit and thin.cand[cell] >> (digit - 1) & 1
                if wrong and rng.random() > keep:
                    thin.eliminate(cell, digit)
        for name in ("forcing", "multiple", "dynamic"):
            fast, slow = PAIRS[name]
            steps = _fields(fast(thin))
            assert steps == _fields(slow(thin)), (name, keep)
            found += len(steps)
    assert found  # the positions give chains to compare


def test_chains_alone_solve_and_never_err() -> None:
    for puzzle, rating, _ in RATED[:4]:
        steps = checked_path(Grid(puzzle), techniques=singles_and_chains())
        assert er(steps) >= rating


HARD = "........7..4.2.6..8.....31......29...4..9..3...95.6....1......8..6.5.2..7......6."


def test_dynamic_plus() -> None:
    # ER 10.3 in the forum's hardest list; its first step is a 9.8 "(+)" chain.
    solution = sudokit.solve(Grid(HARD))
    assert solution is not None
    state = Candidates.from_grid(Grid(HARD))
    assert not list(chains.find_dynamic_forcing_chains(state))
    (step,) = chains.find_dynamic_plus(state)
    check_step(step, solution, state)
    assert (step.technique, step.rating) == ("dynamic-forcing-chain-plus", 9.8)
    assert "Dynamic forcing chains (+)" in step.text


@pytest.mark.slow
def test_nested_level_2() -> None:
    puzzle = HARD
    solution = sudokit.solve(Grid(puzzle))
    assert solution is not None
    state = Candidates.from_grid(Grid(puzzle))
    order = se_order(nested=True)
    seen: list[Step] = []
    for step in solve_steps(state, techniques=order):
        check_step(step, solution, state)
        apply(state, step)
        seen.append(step)
        if step.technique == "nested-forcing-chain-2":
            break
    assert [s.technique for s in seen[-2:]] == [
        "dynamic-forcing-chain-plus",
        "nested-forcing-chain-2",
    ]
    assert [s.rating for s in seen[-2:]] == [9.8, 10.2]


@pytest.mark.slow
@pytest.mark.parametrize("nesting", [2, 3, 4])
def test_nested_levels_match_the_python_reference(nesting: int) -> None:
    """The nested levels, C against the reference, on the position where HARD first needs one:
    their inner engines' findings (each removable's first hint in SE's order, found through
    the path's memo) decide every field of the step, its complexity most of all. About a
    minute of Python for the three."""
    state = Candidates.from_grid(Grid(HARD))
    for step in solve_steps(state, techniques=se_order(nested=True)):
        if step.technique == "nested-forcing-chain-2":
            break
        apply(state, step)
    fast = _fields(chains.find_nested(nesting)(state))
    assert fast, nesting
    assert fast == _fields(ref.find_nested(nesting)(state))


def test_rejects_bad_levels() -> None:
    with pytest.raises(ValueError):
        chains.find_nested(1)
    state = Candidates.from_grid(Grid(RATED[0][0]))
    with pytest.raises(ValueError):
        ref.chain_steps(state, "static")


def _dev_rows(minimum: float) -> Iterator[tuple[str, float]]:
    for line in data_lines("se_rated_dev.csv")[1:]:
        puzzle, rating = line.split(",")[:2]
        if float(rating) >= minimum:
            yield puzzle, float(rating)


def test_dev_sample_ratings() -> None:
    rows = list(_dev_rows(6.5))[::30]
    agree = sum(er(checked_path(Grid(p), techniques=se_order())) == r for p, r in rows)
    assert agree >= 0.95 * len(rows)


@pytest.mark.slow
def test_dev_sweep_ratings_and_no_wrong_deduction() -> None:
    rows = list(_dev_rows(6.5))
    misses = [
        (p, r, got)
        for p, r in rows
        if (got := er(checked_path(Grid(p), techniques=se_order()))) != r
    ]
    assert len(misses) <= 0.05 * len(rows), misses


@pytest.mark.slow
def test_hardest_sample_within_two_tenths() -> None:
    lines = data_lines("hardest_1106.csv")[1:]
    rated = [ln.split(",") for ln in lines if ln.split(",")[2]]
    sample = rated[:: max(1, len(rated) // 6)][:6]
    close = 0
    for puzzle, _, rating, *_ in sample:
        steps = checked_path(Grid(puzzle), techniques=se_order(nested=True))
        close += abs(er(steps) - float(rating)) <= 0.2 + 1e-9
    assert close >= 0.8 * len(sample)
