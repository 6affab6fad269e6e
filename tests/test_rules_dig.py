"""The dig under rules on 9x9 grids (the engine's bitboard search, its unavoidable sets, random
jigsaw layouts grown in C) against the pure-Python oracle.

Each uniqueness question a dig asks is "is there a solution that differs from the known one at
this cell?"; ``_engine.removable`` asks it of every clue. Here its answers, on generated puzzles
with a few clues of their solution put back (so that some clues can go and some cannot), must
be the oracle's, clue by clue; and a puzzle the generator calls minimal must be minimal by the
oracle.
"""

from __future__ import annotations

import random

import pytest

import rules_oracle
from sudokit import _engine, generate
from sudokit._shape import Shape
from sudokit.rules import Rules, geometry, random_regions

QUICK = ["x", "windoku", "dg", "antiking", "x+windoku"]
HEAVY = ["antiknight", "nc", "antiknight+x", "jigsaw"]


def _check(rules: str, seed: int, *, sweep: bool = True) -> None:
    """The dig's answers on puzzle ``seed`` of ``rules``; with ``sweep``, the oracle's proof
    of its minimality too (under nc and jigsaw, taking one clue off a minimal puzzle leaves
    the oracle minutes of search)."""
    p = generate(rules=rules, symmetry="none", seed=seed)
    g, solution = p.puzzle, p.solution.cells
    geo = geometry(g.shape, g.rules)

    def removable_by_oracle(cells: bytes) -> list[int]:
        found = []
        for c, v in enumerate(cells):
            if v:
                fewer = list(cells)
                fewer[c] = 0
                if rules_oracle.solve(geo, fewer, 2)[0] == 1:
                    found.append(c)
        return found

    assert rules_oracle.solve(geo, list(g.cells), 2)[0] == 1
    if p.minimal is True and sweep:
        assert removable_by_oracle(g.cells) == []
    rng = random.Random(seed)
    more = bytearray(g.cells)
    for c in rng.sample([c for c in range(81) if not more[c]], 4):
        more[c] = solution[c]
    want = removable_by_oracle(bytes(more))
    got, gave_up = _engine.removable(3, 3, bytes(more), solution, 0, False, geo.blob)
    assert not gave_up
    assert got == want, rules


@pytest.mark.parametrize("rules", QUICK)
def test_dig_answers_agree_with_the_oracle(rules: str) -> None:
    _check(rules, 1)


@pytest.mark.slow
@pytest.mark.parametrize("rules", QUICK + HEAVY)
def test_dig_answers_agree_with_the_oracle_more(rules: str) -> None:
    heavy = rules == "nc" or rules.startswith("jigsaw")  # the oracle's slowest
    for seed in (2,) if heavy else range(2, 5):
        _check(rules, seed, sweep=not heavy)


def test_random_layouts_from_the_engine_are_layouts() -> None:
    shape = Shape(3, 3)
    for seed in range(50):
        regions = random_regions(shape, [], seed)
        assert Rules.of(regions=regions).side == 9  # checks 9 connected regions of 9 cells
        assert random_regions(shape, [], seed) == regions
    turn = [[80 - c for c in range(81)]]  # rot180
    for seed in range(20):
        regions = random_regions(shape, turn, seed)
        image = {regions[c]: regions[80 - c] for c in range(81)}
        assert all(image[regions[c]] == regions[80 - c] for c in range(81))
    with pytest.raises(ValueError, match="maps"):
        _engine.random_regions(3, 3, b"\x00", 1)
    with pytest.raises(ValueError, match="out of range"):
        _engine.random_regions(3, 3, b"\xff\x00" * 81, 1)
