"""The C engine under rules against the pure-Python reference (tests/logic/pyref/), step by
step, for the techniques past the subsets (the wings, in SukakuExplainer's visible order; unique
loops and the BUG over every house, with its neighbour-rule checks; aligned pair exclusion
over the peers), on positions along the paths of puzzles of each rule set, some of them thinned."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator

import pytest
from rules_puzzles import JIGSAW9, dig

from sudokit import Rules, unique_solution
from sudokit.logic import SE_ORDER, Candidates, Step, for_rules, solve_steps
from sudokit.logic._native import finder
from sudokit.logic._state import visible_order

from pyref import bug, chains, exclusion, uniqueness, wings

REFERENCE: dict[str, Callable[[Candidates], Iterable[Step]]] = {
    "xy-wing": wings.find_xy_wings,
    "xyz-wing": wings.find_xyz_wings,
    "unique-rectangle": uniqueness.find_unique_loops,
    "bug": bug.find_bug,
    "aligned-pair-exclusion": exclusion.find_aligned_pair_exclusions,
    "aligned-triple-exclusion": exclusion.find_aligned_triple_exclusions,
}

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
    "jigsaw:" + JIGSAW9 + "+x",
]


def _fields(step: Step) -> tuple[object, ...]:
    return (
        step.technique,
        step.rating,
        step.eliminations,
        step.cells,
        step.units,
        step.digits,
        step.complexity,
        step.info,
        tuple(tuple(link) for link in step.links),
    )


def _positions(rules: str, seeds: Iterable[int]) -> Iterator[Candidates]:
    rng = random.Random(rules)
    within = for_rules(SE_ORDER, Rules(rules))
    for seed in seeds:
        puzzle = dig(rules, seed)
        solution = unique_solution(puzzle)
        assert solution is not None
        state = Candidates.from_grid(puzzle)
        states = [state.copy()]
        for _ in solve_steps(state, techniques=within, in_place=True):
            states.append(state.copy())
        for s in states[-8:]:
            yield s
            thin = s.copy()
            for cell in thin.empty_cells():
                for d0 in range(thin.n):
                    d = d0 + 1
                    if thin.cand[cell] >> d0 & 1 and solution[cell] != d and rng.random() > 0.7:
                        thin.eliminate(cell, d)
            yield thin


@pytest.mark.parametrize("rules", RULE_SETS)
def test_same_steps_under_rules(rules: str) -> None:
    found = 0
    for state in _positions(rules, range(200, 210)):
        for slug, reference in REFERENCE.items():
            c_steps = [_fields(s) for s in finder(slug)(state)]
            py_steps = [_fields(s) for s in reference(state)]
            assert c_steps == py_steps, f"{slug} under {rules}: {state.to_grid().to_line()}"
            found += len(c_steps)
    assert found > 0


@pytest.mark.parametrize("rules", ["x+windoku", "antiknight+x", "antiking+dg+x", RULE_SETS[-1]])
def test_same_chain_steps_under_rules(rules: str) -> None:
    """Forcing chains and cycles (the reference is slow: every third position of fewer
    puzzles), whose links run through every house and the neighbour rules' cells."""
    found = 0
    for i, state in enumerate(_positions(rules, range(200, 204))):
        if i % 3:
            continue
        c_steps = [_fields(s) for s in finder("forcing-chains")(state)]
        py_steps = [_fields(s) for s in chains.find_forcing_chains(state)]
        assert c_steps == py_steps, f"forcing-chains under {rules}: {state.to_grid().to_line()}"
        found += len(c_steps)
    assert found > 0


def test_visible_order_is_sukaku_explainers() -> None:
    """The wings' peer order: house peers ascending, then window, group, diagonal cells, then
    anti-king's and anti-knight's in SukakuExplainer's move order."""
    shape = dig("x", 0).shape
    r1c0 = visible_order(shape, Rules("windoku"))[9]
    # the implied window across rows 2-4 and the gap columns is listed column by column
    assert r1c0[20:] == (22, 31, 26, 35)
    centre = visible_order(shape, Rules("antiknight+x"))[40]
    assert centre[20:32] == (0, 8, 10, 16, 20, 24, 56, 60, 64, 70, 72, 80)
    assert centre[32:] == (51, 33, 47, 29, 59, 23, 57, 21)
    king = visible_order(shape, Rules("antiking"))[30]  # r4c4: r5c5 shares its box
    assert king[20:] == (22, 20, 38)


def test_a_geometry_with_more_links_than_the_chains_hold_is_refused() -> None:
    """A rules geometry whose cells have more peers than a candidate's links can hold (the
    chains' and aligned exclusions' buffers) is refused as unreadable, not searched: here
    every cell of a 20x20 grid sees every other."""
    import struct

    from sudokit import Shape, _logic
    from sudokit.logic._native import TECH_ID
    from sudokit.logic._state import engine_geometry

    shape = Shape(4, 5)
    blob = engine_geometry(shape, Rules("antiking"))
    assert blob is not None
    ints = list(struct.unpack(f"<{len(blob) // 4}i", blob))
    n, size = shape.n, shape.size
    at = 3 + ints[2] * n  # after the shape, the house count and the houses: the peer lists
    peers = []
    for c in range(size):
        k = ints[at]
        at += 1 + k
        peers += [size - 1, *(p for p in range(size) if p != c)]
    ints = ints[: 3 + ints[2] * n] + peers + ints[at:]
    crowded = struct.pack(f"<{len(ints)}i", *ints)
    values, cand = bytes(size), [(1 << n) - 1] * size
    for slug in ("forcing-chains", "aligned-pair-exclusion", "naked-single"):
        with pytest.raises(ValueError, match="not a rules geometry the engine can read"):
            _logic.find(TECH_ID[slug], shape.box_rows, shape.box_cols, values, cand, crowded)
