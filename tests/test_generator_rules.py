"""The generator under rules: every puzzle unique by the pure-Python oracle, minimal where it
says so, reproducible from its seed, the same with --jobs; requests that carry rules."""

from __future__ import annotations

import pickle

import pytest

import rules_oracle
from sudokit import Shape
from sudokit.difficulty import Request
from sudokit.errors import InvalidRulesError
from sudokit.generator import (
    SYMMETRIES,
    Batch,
    generate,
    generate_many,
    is_minimal,
    minimise,
    symmetries_kept,
)
from sudokit.layouts import random_layout as random_regions
from sudokit.rules import CLASSIC, Rules, geometry

#: (shape, rules) with complete grids, small enough for the oracle to check every clue.
SMALL = [
    ("2x2", "x"),
    ("2x2", "windoku"),
    ("2x2", "dg"),
    ("2x3", "antiknight"),
    ("2x3", "antiking"),
    ("2x3", "nc"),
    ("2x2", "x+windoku"),
    ("2x3", "antiknight+dg"),
    ("2x2", "jigsaw"),
    ("2x3", "jigsaw"),
    ("2x3", "jigsaw+x"),
]
NINE = ["x", "windoku", "dg", "antiknight", "antiking", "nc", "x+windoku"]  # (jigsaw: SMALL)


def _unique(puzzle_rules: Rules, shape: Shape, cells: bytes) -> bool:
    count, _ = rules_oracle.solve(geometry(shape, puzzle_rules), list(cells), 2)
    return count == 1


def _oracle_minimal(shape: Shape, rules: Rules, cells: bytes) -> bool:
    for c, v in enumerate(cells):
        if v:
            fewer = bytearray(cells)
            fewer[c] = 0
            if _unique(rules, shape, bytes(fewer)):
                return False
    return True


@pytest.mark.parametrize(("shape", "rules"), SMALL)
def test_small_puzzles_are_unique_and_minimal_by_the_oracle(shape: str, rules: str) -> None:
    for seed in range(4):
        p = generate(shape=shape, rules=rules, symmetry="none", seed=seed)
        g = p.puzzle
        assert g.rules != CLASSIC and g.rules == p.solution.rules
        if not rules.startswith("jigsaw"):
            assert g.rules == Rules(rules)
        else:
            assert g.rules.regions is not None
            assert set(g.rules.extras) == set(rules.split("+")[1:])
        assert _unique(g.rules, g.shape, g.cells)
        assert p.minimal is True
        assert _oracle_minimal(g.shape, g.rules, g.cells)
        assert is_minimal(g, p.solution) is True
        assert generate(shape=shape, rules=rules, symmetry="none", seed=seed) == p


@pytest.mark.parametrize("rules", NINE)
def test_nine_by_nine_puzzles_are_unique_by_the_oracle(rules: str) -> None:
    for seed in range(1):
        p = generate(rules=rules, symmetry="none", seed=seed)
        g = p.puzzle
        assert _unique(g.rules, g.shape, g.cells)
        assert p.solution.is_complete()
        assert (
            rules_oracle.breaks(
                geometry(g.shape, g.rules).peers,
                geometry(g.shape, g.rules).related,
                p.solution.cells,
            )
            is None
        )
        assert generate(rules=rules, symmetry="none", seed=seed) == p


def test_orbit_minimal_symmetric_puzzles_by_the_oracle() -> None:
    for rules, sym in [("x", "rot90"), ("windoku", "rot180"), ("jigsaw", "rot180")]:
        p = generate(shape="2x2", rules=rules, symmetry=sym, seed=5)
        g = p.puzzle
        assert _unique(g.rules, g.shape, g.cells)
        assert p.orbit_minimal is True
        from sudokit.generator import orbits, symmetry_of

        assert symmetry_of(g) in {sym, "full"} or sym in SYMMETRIES
        for orbit in orbits(g.shape, sym):
            if g.cells[orbit[0]]:
                fewer = bytearray(g.cells)
                for c in orbit:
                    fewer[c] = 0
                assert not _unique(g.rules, g.shape, bytes(fewer))
        assert p.minimal == _oracle_minimal(g.shape, g.rules, g.cells)


def test_clue_targets_under_rules() -> None:
    p = generate(shape="2x3", rules="antiknight", symmetry="none", clues=14, seed=3)
    assert p.clues == 14 and _unique(p.puzzle.rules, p.shape, p.puzzle.cells)
    q = generate(rules="x", max_clues=24, symmetry="rot180", seed=3)
    assert q.clues <= 24


def test_batches_and_jobs_give_the_same_puzzles() -> None:
    one = list(generate_many(12, rules="x", symmetry="none", seed=9))
    two = list(generate_many(12, rules="x", symmetry="none", seed=9, jobs=2, chunk=3))
    assert one == two
    assert [p.puzzle.rules for p in one] == [Rules("x")] * 12
    assert one[5] == generate(rules="x", symmetry="none", seed=9, index=5)
    jig = list(generate_many(6, shape="2x3", rules="jigsaw", seed=1, jobs=2, chunk=2))
    assert jig == list(generate_many(6, shape="2x3", rules="jigsaw", seed=1))
    assert len({p.puzzle.rules for p in jig}) > 1  # a fresh layout a puzzle


def test_batches_pickle_their_rules() -> None:
    made = Batch(generate_many(3, rules="windoku", seed=2))
    back = pickle.loads(pickle.dumps(made))
    assert back == made and all(p.puzzle.rules == Rules("windoku") for p in back)
    mixed = Batch(generate_many(3, shape="2x2", rules="jigsaw", symmetry="none", seed=2))
    assert pickle.loads(pickle.dumps(mixed)) == mixed


def test_minimise_keeps_the_rules() -> None:
    p = generate(rules="antiking", symmetry="none", clues=30, minimal=False, seed=4)
    small, proven = minimise(p.puzzle, p.solution, seed=1)
    assert small.rules == Rules("antiking") and proven is True
    assert _oracle_minimal(small.shape, small.rules, small.cells)


def test_the_request_carries_rules() -> None:
    r = Request.of(rules="hyper+x", symmetry="none")
    assert r.rules == Rules("x+windoku")
    assert "rules=x+windoku" in r.text()
    assert Request.parse(r.text()) == r
    assert r.key() == "shape=3x3 rules=x+windoku symmetry=none"
    classic = Request.of()
    assert "rules=" not in classic.text() and "rules" not in classic.items()
    assert Request.parse(classic.text()).rules == CLASSIC
    jig = Request.of(rules="x+jigsaw", shape="2x3")
    assert jig.rules == "jigsaw+x" and jig.random_layout
    assert Request.parse(jig.text()) == jig
    fixed = Request.of(rules=Rules("jigsaw:1112122234443334"), shape="2x2", symmetry="mirror-h")
    assert Request.parse(fixed.text()) == fixed


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"rules": "bogus"}, "unknown rule 'bogus'"),
        ({"rules": "windoku", "shape": "2x3"}, "windoku needs square boxes"),
        ({"rules": "jigsaw+dg"}, "dg (disjoint groups) needs boxes"),
        ({"rules": "jigsaw:1112122234443334", "shape": "2x2"}, "breaks rules"),
        ({"rules": "jigsaw:1112122234443334", "shape": "3x3"}, "side 4"),
        ({"rules": "jigsaw+jigsaw:1112122234443334", "shape": "2x2"}, "two jigsaws"),
    ],
)
def test_rules_that_do_not_fit_are_refused_by_name(fields: dict[str, str], words: str) -> None:
    with pytest.raises(InvalidRulesError, match=words.replace("(", r"\(").replace(")", r"\)")):
        Request.of(**fields)


def test_symmetries_the_rules_keep() -> None:
    nine = Shape(3, 3)
    for rules in ["x", "windoku", "dg", "antiknight", "antiking", "nc", "x+windoku"]:
        assert symmetries_kept(nine, Rules(rules)) == tuple(SYMMETRIES)
    lopsided = Rules("jigsaw:1112122234443334")
    assert symmetries_kept(Shape(2, 2), lopsided) == ("none", "mirror-h")
    with pytest.raises(InvalidRulesError, match="breaks rules"):
        generate(shape="2x2", rules=lopsided, symmetry="rot180", seed=1)
    p = generate(shape="2x2", rules=lopsided, symmetry="random", seed=1)
    assert p.symmetry == "mirror-h"


def test_random_layouts_are_connected_and_keep_their_symmetry() -> None:
    for shape in [Shape(2, 2), Shape(2, 3), Shape(3, 3), Shape(3, 4), Shape(4, 4)]:
        n = shape.n
        for seed in range(3):
            regions = random_regions(shape, "rot180", seed)
            rules = Rules.of(regions=regions)  # checks n connected regions of n cells
            assert rules.side == n
            image = {regions[c]: regions[n * n - 1 - c] for c in range(n * n)}
            assert all(image[regions[c]] == regions[n * n - 1 - c] for c in range(n * n))
            free = random_regions(shape, "none", seed)
            Rules.of(regions=free)
    layouts = {random_regions(Shape(3, 3), "none", s) for s in range(20)}
    assert len(layouts) == 20


def test_a_rule_set_without_a_complete_grid_is_refused() -> None:
    with pytest.raises(InvalidRulesError, match="no complete grid"):
        generate(shape="2x2", rules="antiking", symmetry="none", seed=1)
