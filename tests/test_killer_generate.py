"""Killer generation (sudokit.killer, _ckiller/generate.c) and the killer geometry the engine
derives (_ckiller/geometry.c), checked against tests/killer_oracle.py: every puzzle made here
is counted unique by the oracle, minimal layouts are checked pair by pair, and the engine's
peers and rule-of-45 sums are compared with a Python reference."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

import killer_oracle as oracle
from sudokit import Grid, Shape, _engine, count_solutions, generate, generate_many
from sudokit.cages import Cage, Cages
from sudokit.difficulty import Request
from sudokit.errors import InvalidRulesError
from sudokit.formats.records import read_puzzles
from sudokit.rules import Rules, geometry


def _check_unique(p_cells: bytes, sol: bytes, rules: Rules, shape: Shape) -> None:
    assert rules.cages is not None
    cages = [(c.cells, c.total) for c in rules.cages]
    assert sorted(x for c, _ in cages for x in c) == list(range(shape.size))  # a cover
    for cells, _ in cages:  # the digits of a cage differ in the solution
        assert len({sol[c] for c in cells}) == len(cells)
    if rules.extras:  # the oracle knows rows, columns and boxes: check the extras' houses here
        for house in geometry(shape, rules).houses:
            assert sorted(sol[c] for c in house) == list(range(1, shape.n + 1))
        return
    count, found = oracle.count(shape.box_rows, shape.box_cols, cages, list(p_cells))
    assert count == 1 and found is not None and bytes(found) == sol


def _cages_of(rules: Rules) -> list[tuple[tuple[int, ...], int]]:
    assert rules.cages is not None
    return [(c.cells, c.total) for c in rules.cages]


@pytest.mark.parametrize("shape", ["2x2", "2x3", "3x2"])
@pytest.mark.parametrize("symmetry", ["none", "rot180", "mirror-v"])
def test_small_killer_puzzles_are_unique_by_the_oracle(shape: str, symmetry: str) -> None:
    for seed in range(6):
        p = generate(rules="killer", shape=shape, symmetry=symmetry, seed=seed)
        assert p.clues == 0 and p.symmetry == symmetry
        _check_unique(p.puzzle.cells, p.solution.cells, p.puzzle.rules, p.shape)
        if symmetry != "none":  # the layout keeps the symmetry: each cage's image is a cage
            layout = {tuple(c) for c, _ in _cages_of(p.puzzle.rules)}
            assert all(
                tuple(sorted(_image(symmetry, p.shape.n, x) for x in cells)) in layout
                for cells in layout
            )


def _image(symmetry: str, n: int, c: int) -> int:
    return n * n - 1 - c if symmetry == "rot180" else c - c % n + n - 1 - c % n


def test_nine_by_nine_killer_puzzles_are_unique_by_the_oracle() -> None:
    # (the oracle is a plain search: some 9x9 layouts take it minutes, these a fraction of a
    # second; the small shapes above and below are checked in bulk)
    for seed, clues in ((3, 0), (1, 20)):
        p = generate(rules="killer", seed=seed, symmetry="none", clues=clues or None)
        _check_unique(p.puzzle.cells, p.solution.cells, p.puzzle.rules, p.shape)
        sizes = [len(c) for c, _ in _cages_of(p.puzzle.rules)]
        assert min(sizes) >= 1 and max(sizes) <= 5 and p.clues == clues


@pytest.mark.parametrize(("shape", "sizes"), [("2x3", "2-4"), ("3x2", "3-4"), ("3x3", "2-4")])
def test_cage_sizes_are_kept(shape: str, sizes: str) -> None:
    lo, hi = (int(x) for x in sizes.split("-"))
    for seed in range(3):
        p = generate(rules="killer", shape=shape, seed=seed, symmetry="none", cage_sizes=sizes)
        got = [len(c) for c, _ in _cages_of(p.puzzle.rules)]
        assert lo <= min(got) and max(got) <= hi
        if p.shape.n < 9:
            _check_unique(p.puzzle.cells, p.solution.cells, p.puzzle.rules, p.shape)
        else:
            assert count_solutions(p.puzzle, limit=2) == 1


def test_killer_with_extras() -> None:
    p = generate(rules="killer+x", seed=4, symmetry="none")
    assert p.puzzle.rules.extras == ("x",)
    _check_unique(p.puzzle.cells, p.solution.cells, p.puzzle.rules, p.shape)
    assert count_solutions(p.puzzle, limit=2) == 1
    q = generate(rules="killer+antiknight", shape="2x3", seed=4, symmetry="none")
    assert count_solutions(q.puzzle, limit=2) == 1


def _touching(a: tuple[int, ...], b: tuple[int, ...], n: int) -> bool:
    return any(abs(x - y) == n or (abs(x - y) == 1 and x // n == y // n) for x in a for y in b)


@pytest.mark.parametrize("shape", ["2x2", "2x3"])
def test_minimal_layouts_by_the_oracle(shape: str) -> None:
    """Minimal in cages: no two side-touching cages whose digits differ and whose cells number
    at most the greatest cage size merge into one cage of their total keeping uniqueness."""
    for seed in range(4):
        p = generate(rules="killer", shape=shape, symmetry="none", minimal=True, seed=seed)
        assert p.minimal is True
        n, sol = p.shape.n, p.solution.cells
        _check_unique(p.puzzle.cells, sol, p.puzzle.rules, p.shape)
        cages = _cages_of(p.puzzle.rules)
        tried = 0
        for i, (a, sa) in enumerate(cages):
            for j, (b, sb) in enumerate(cages[i + 1 :], i + 1):
                merged = tuple(sorted(a + b))
                if len(merged) > min(5, n) or not _touching(a, b, n):
                    continue
                if len({sol[c] for c in merged}) < len(merged):
                    continue
                rest = [c for k, c in enumerate(cages) if k not in (i, j)] + [(merged, sa + sb)]
                count, _ = oracle.count(p.shape.box_rows, p.shape.box_cols, rest)
                assert count >= 2, (seed, a, b)
                tried += 1
        assert tried  # (the check has pairs to try)
    plain = generate(rules="killer", shape="2x2", symmetry="none", seed=0)
    assert plain.minimal is None  # not asked for


def test_seeds_batches_and_jobs_give_the_same_puzzles() -> None:
    one = list(generate_many(8, rules="killer", seed=5))
    assert one == list(generate_many(8, rules="killer", seed=5, jobs=2, chunk=2))
    assert one[3] == generate(rules="killer", seed=5, index=3)
    assert len({p.puzzle.rules for p in one}) == 8  # a fresh layout a puzzle
    assert generate(rules="killer", seed=6) != generate(rules="killer", seed=7)


def test_the_request_carries_cage_sizes() -> None:
    r = Request(rules="killer", cage_sizes="2-4", symmetry="none")  # type: ignore[arg-type]
    assert r.cage_sizes == (2, 4) and "cage_sizes=2-4" in r.text()
    assert Request.parse(r.text()) == r
    assert "cage_sizes" not in Request(rules="killer").text()
    assert Request(rules="killer").minimal is False  # minimal in cages only when asked
    with pytest.raises(ValueError, match="cage_sizes=0-3"):
        Request(rules="killer", cage_sizes=(0, 3))
    with pytest.raises(ValueError, match="cage_sizes=2-10"):
        Request(rules="killer", cage_sizes="2-10")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="cage_sizes=.*is for killer"):
        Request(rules="x", cage_sizes="1-3")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not max_clues"):
        Request(rules="killer", max_clues=20)
    with pytest.raises(InvalidRulesError, match="makes its own cages"):
        Request(shape=Shape(2, 2), rules=Rules("killer:AABBCCDDEEFFGGHH/3,7,7,3,3,7,7,3"))
    with pytest.raises(InvalidRulesError, match="killer with a jigsaw"):
        Request(shape=Shape(2, 2), rules="killer+jigsaw:1122112233443344")


def _sudokit(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sudokit", *args], capture_output=True, text=True, timeout=120
    )


def test_the_command_line_makes_killer_records_that_read_back() -> None:
    done = _sudokit("generate", "--rules", "killer", "-n", "3", "--seed", "1", "--with-solution")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 3 and all(" rules=killer:" in line for line in lines)
    records = list(read_puzzles(done.stdout))
    assert all(r.error is None for r in records)
    for record, made in zip(records, generate_many(3, rules="killer", seed=1), strict=True):
        assert record.grid is not None and record.grid.rules == made.puzzle.rules
        assert record.grid.cells == made.puzzle.cells
    again = subprocess.run(
        [sys.executable, "-m", "sudokit", "solve"],
        input=done.stdout,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert again.returncode == 0, again.stderr
    assert [line.split()[0] for line in again.stdout.splitlines()] == [
        "".join(str(d) for d in m.solution.cells) for m in generate_many(3, rules="killer", seed=1)
    ]


def test_a_bad_cage_size_range_is_named_on_the_command_line() -> None:
    done = _sudokit("generate", "--rules", "killer", "--cage-sizes", "3-1")
    assert done.returncode == 2 and "cage_sizes=3-1" in done.stderr
    done = _sudokit("generate", "--cage-sizes", "1-3")
    assert done.returncode == 2 and "is for killer" in done.stderr


@pytest.mark.parametrize(
    ("shape", "rules"),
    [
        ("2x2", ""),
        ("2x3", "x"),
        ("3x3", ""),
        ("3x3", "windoku+antiking"),
        (
            "3x3",
            "jigsaw:111222333111222333111222333444555666444555666444555666777888999777888999777888999",
        ),
        ("4x4", "nc"),
    ],
)
def test_the_engines_killer_geometry_matches_a_python_reference(shape: str, rules: str) -> None:
    s = Shape.of(shape)
    rng = random.Random(f"{shape}{rules}")
    for _ in range(4):
        solution = bytes(rng.randrange(1, 100) for _ in range(s.size))  # distinct-enough labels
        layout = oracle.random_layout(solution, s.n, rng, min(5, s.n))
        n = s.n
        cages = Cages(n, [Cage(tuple(c), len(c) * (len(c) + 1) // 2) for c in layout])
        full = Rules.of(
            Rules(rules or "classic").extras, regions=Rules(rules or "classic").regions, cages=cages
        )
        geo = geometry(s, full)
        peers, sums, real = _engine.killer_geometry(s.box_rows, s.box_cols, geo.blob)
        assert real == len(cages)
        assert peers == [tuple(p) for p in geo.peers]
        want = [(c.cells, c.total) for c in cages] + [
            (tuple(cells), total) for cells, total in oracle.innies(geo.houses, _cages_of(full), n)
        ]
        assert sums == want


def test_cage_maps_read_in_c_match_the_layouts_made_in_python() -> None:
    rng = random.Random(3)
    for side in (4, 6, 9, 16):
        solution = bytes(rng.randrange(1, 250) for _ in range(side * side))
        layout = oracle.random_layout(solution, side, rng, min(5, side))
        made = Cages(side, [Cage(tuple(c), len(c) * (len(c) + 1) // 2) for c in layout])
        assert Cages.parse(str(made)) == made and hash(Cages.parse(str(made))) == hash(made)
        assert Cages.from_blob(side, made.blob) == made
    grid = Grid("." * 16, shape=Shape(2, 2), rules="killer:AABB CCDB EEDF GGHF / 3,9,7,5,4,6,5,2")
    assert grid.rules.cages is not None and len(grid.rules.cages) == 8


def test_killer_rules_without_a_complete_grid_are_refused_at_once() -> None:
    with pytest.raises(
        InvalidRulesError, match="'killer\\+antiking' on shape 2x2 have no complete"
    ):
        generate(rules="killer+antiking", shape=Shape(2, 2), seed=1)
