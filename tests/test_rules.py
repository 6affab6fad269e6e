"""Rules and their geometry: the text form, the errors, houses and peers pinned by counts."""

from __future__ import annotations

import doctest
import pickle
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rules_oracle
from sudokit import rules as rules_module
from sudokit._shape import Shape
from sudokit.errors import InvalidRulesError, SudokitError
from sudokit.rules import CLASSIC, RULES, Rules, geometry

SUDOKU = Shape(3, 3)

# A 9x9 jigsaw map: the boxes with three pairs of cells swapped across box borders.
JIGSAW9 = "111222333111222333114522333144552666444555666444555966777888996777888999777888999"
EXTRAS = ["x", "windoku", "dg", "antiknight", "antiking", "nc"]


def _jigsaw_ok(text: str) -> None:
    Rules("jigsaw:" + text)


def test_doctests() -> None:
    assert doctest.testmod(rules_module).failed == 0


def test_classic_is_default() -> None:
    assert Rules() == CLASSIC == Rules("classic") == Rules("") == Rules.parse("  classic ")
    assert CLASSIC.is_classic and str(CLASSIC) == "classic" and repr(CLASSIC) == "Rules('classic')"
    assert not Rules("x").is_classic


def test_catalogue_names_every_rule() -> None:
    assert set(RULES) == {"classic", "jigsaw", "killer", *EXTRAS}
    assert all(RULES[name] for name in RULES)


def test_canonical_order_and_alias() -> None:
    assert str(Rules("windoku+x")) == "x+windoku"
    assert Rules("antiknight+x") == Rules("x+antiknight")
    assert Rules("hyper") == Rules("windoku") and str(Rules("HYPER + X")) == "x+windoku"
    r = Rules("x+jigsaw:" + JIGSAW9)
    # regions renumbered by first appearance: region 9 (at r6c7) comes before region 7 (r7c1)
    assert str(r) == "jigsaw:" + JIGSAW9.translate(str.maketrans("789", "897")) + "+x"
    assert Rules.of(["x", "hyper"]) == Rules("x+windoku")


def test_jigsaw_labels_renumbered() -> None:
    relabelled = JIGSAW9.translate(str.maketrans("123456789", "aXbYcZdWe"))
    assert Rules("jigsaw:" + relabelled) == Rules("jigsaw:" + JIGSAW9)
    spaced = " ".join(JIGSAW9[i : i + 9] for i in range(0, 81, 9))
    assert Rules("jigsaw:" + spaced) == Rules("jigsaw:" + JIGSAW9)
    r = Rules("jigsaw:" + JIGSAW9)
    assert r.regions is not None and r.regions[0] == 0 and r.side == 9
    assert Rules.of(regions=r.regions) == r


def test_hash_eq_pickle() -> None:
    a, b = Rules("x+nc"), Rules("nc+x")
    assert a == b and hash(a) == hash(b) and len({a, b, CLASSIC}) == 2
    assert a != CLASSIC and a != "x+nc"
    for r in (a, CLASSIC, Rules("jigsaw:" + JIGSAW9 + "+antiking")):
        assert pickle.loads(pickle.dumps(r)) == r
        assert eval(repr(r), {"Rules": Rules}) == r
    with pytest.raises(AttributeError):
        a.extras = ()


def _region_maps(n: int) -> st.SearchStrategy[str]:
    """Valid jigsaw maps: the plain row-stripes map of side n, shuffled in labels."""

    def stripes(names: list[str]) -> str:
        return "".join(names[r] * n for r in range(n))

    alphabet = "ABCDEFGHIJKLMNOPabcdefghijklmnop"
    return st.permutations(list(alphabet[:n])).map(stripes)


@given(
    extras=st.lists(st.sampled_from([*EXTRAS, "hyper"]), unique=True),
    regions=st.one_of(st.none(), st.integers(4, 16).flatmap(_region_maps)),
    order=st.randoms(use_true_random=False),
)
def test_text_round_trip(extras: list[str], regions: str | None, order: random.Random) -> None:
    if "hyper" in extras and "windoku" in extras:
        extras.remove("hyper")
    parts = list(extras) + ([] if regions is None else ["jigsaw:" + regions])
    order.shuffle(parts)
    r = Rules("+".join(parts))
    assert Rules.parse(str(r)) == r
    assert eval(repr(r), {"Rules": Rules}) == r
    assert str(Rules.parse(str(r))) == str(r)
    assert len(r.extras) == len(extras) and (r.regions is None) == (regions is None)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("zigzag", ["unknown rule 'zigzag'", "known:", "antiknight"]),
        ("x+x", ["'x' given twice"]),
        ("classic+x", ["'classic' means no extras"]),
        ("jigsaw", ["region map"]),
        ("x:3", ["takes no ':'"]),
        ("jigsaw:" + "1" * 80, ["80 labels is not a square"]),
        ("jigsaw:" + "123" * 3, ["side 3 is outside"]),
        ("jigsaw:" + JIGSAW9[:-1] + "1", ["region '1' has 10 cells", "r1c1"]),
        ("jigsaw:" + JIGSAW9.replace("9", "8"), ["8 regions on a side-9"]),
        # swap r1c1 (region 1) with r9c9 (region 9): both keep 9 cells, neither is connected
        ("jigsaw:" + "9" + JIGSAW9[1:80] + "1", ["region '9' is not connected: r1c1 and"]),
        ("jigsaw:" + JIGSAW9 + "+jigsaw:" + JIGSAW9, ["two jigsaw region maps"]),
    ],
)
def test_errors_name_the_problem(text: str, words: list[str]) -> None:
    with pytest.raises(InvalidRulesError) as info:
        Rules(text)
    for w in words:
        assert w in str(info.value), str(info.value)
    assert isinstance(info.value, SudokitError) and isinstance(info.value, ValueError)


def test_disconnected_region_names_its_cells() -> None:
    # 4x4: region A is r1c1-r1c3 plus r4c4, region D r4c1-r4c3 plus r1c4
    text = "AAADBBBBCCCCDDDA"
    with pytest.raises(InvalidRulesError, match=r"region 'A' is not connected: r1c1 and r4c4"):
        Rules("jigsaw:" + text)
    _jigsaw_ok("AAAABBBBCCCCDDDD")


def test_rules_that_do_not_fit_the_shape() -> None:
    with pytest.raises(InvalidRulesError, match=r"on shape 2x3: windoku needs square boxes"):
        geometry(Shape(2, 3), Rules("windoku"))
    with pytest.raises(InvalidRulesError, match="dg .*needs boxes"):
        geometry(SUDOKU, Rules("dg+jigsaw:" + JIGSAW9))
    with pytest.raises(InvalidRulesError, match="side 9, the grid's side is 16"):
        geometry(Shape(4, 4), Rules("jigsaw:" + JIGSAW9))
    with pytest.raises(InvalidRulesError, match="rules must be text"):
        Rules(3)  # type: ignore[arg-type]


def _cell_counts(shape: Shape, rules: Rules) -> tuple[int, list[int]]:
    g = geometry(shape, rules)
    return len(g.houses), [len(p) for p in g.peers]


def test_classic_geometry_matches_shape() -> None:
    for shape in (Shape(2, 2), Shape(2, 3), SUDOKU, Shape(4, 4)):
        g = geometry(shape, CLASSIC)
        assert g.houses == shape.units
        assert [set(p) for p in g.peers] == [set(p) for p in shape.peers]
        assert all(not r for r in g.related) and all(not k for k in g.neighbours)
    houses, peers = _cell_counts(SUDOKU, CLASSIC)
    assert houses == 27 and set(peers) == {20}
    assert geometry(SUDOKU) is geometry(SUDOKU, CLASSIC)  # cached


def test_extra_house_counts() -> None:
    assert _cell_counts(SUDOKU, Rules("x"))[0] == 29
    assert _cell_counts(SUDOKU, Rules("windoku"))[0] == 36
    assert _cell_counts(SUDOKU, Rules("dg"))[0] == 36
    assert _cell_counts(SUDOKU, Rules("x+windoku+dg"))[0] == 47
    assert _cell_counts(Shape(2, 2), Rules("windoku"))[0] == 12 + 4  # 1 window, 3 implied
    assert _cell_counts(Shape(4, 4), Rules("windoku"))[0] == 48 + 16
    g = geometry(SUDOKU, Rules("windoku"))
    assert g.house_names[27:31] == ("window 1", "window 2", "window 3", "window 4")
    assert g.houses[27] == tuple(r * 9 + c for r in (1, 2, 3) for c in (1, 2, 3))  # r2c2
    assert g.houses[30][0] == 5 * 9 + 5  # r6c6
    for house in g.houses:
        assert len(house) == 9 == len(set(house))
    x = geometry(SUDOKU, Rules("x"))
    assert x.houses[27] == tuple(range(0, 81, 10)) and x.houses[28] == tuple(range(8, 73, 8))
    dg = geometry(SUDOKU, Rules("dg"))
    assert dg.houses[27] == (0, 3, 6, 27, 30, 33, 54, 57, 60)


def test_jigsaw_regions_replace_boxes() -> None:
    g = geometry(SUDOKU, Rules("jigsaw:" + JIGSAW9))
    assert len(g.houses) == 27 and g.house_names[18] == "region 1"
    assert g.houses[18] == (0, 1, 2, 9, 10, 11, 18, 19, 27)
    assert {c for h in g.houses[18:27] for c in h} == set(range(81))


@pytest.mark.parametrize(
    ("rule", "cell", "count"),
    [
        ("antiking", 0, 20),  # r1c1's diagonal neighbour r2c2 is in its box
        ("antiking", 40, 20),  # so are r5c5's four
        ("antiking", 20, 23),  # r3c3 touches three other boxes diagonally
        ("antiknight", 0, 20),  # r2c3 and r3c2 are in r1c1's box
        ("antiknight", 40, 28),  # all eight knight cells of r5c5 are in other boxes
        ("nc", 40, 20),  # a relation, not peers
    ],
)
def test_neighbour_rule_peers(rule: str, cell: int, count: int) -> None:
    g = geometry(SUDOKU, Rules(rule))
    assert len(g.peers[cell]) == count
    assert cell not in g.peers[cell] and list(g.peers[cell]) == sorted(set(g.peers[cell]))


def test_neighbour_cells() -> None:
    knight = geometry(SUDOKU, Rules("antiknight"))
    assert knight.neighbours[0] == (11, 19) and len(knight.neighbours[40]) == 8
    king = geometry(SUDOKU, Rules("antiking"))
    assert king.neighbours[0] == (10,) and king.neighbours[40] == (30, 32, 48, 50)
    both = geometry(SUDOKU, Rules("antiking+antiknight"))
    assert len(both.peers[40]) == 28 and len(both.peers[20]) == 20 + 3 + 6


def test_nc_relation() -> None:
    g = geometry(SUDOKU, Rules("nc"))
    assert g.related[0] == (1, 9) and g.related[40] == (31, 39, 41, 49)
    assert all(not k for k in g.neighbours)


def test_blob_layout() -> None:
    g = geometry(SUDOKU, Rules("antiking+nc"))
    ints = [int.from_bytes(g.blob[i : i + 4], "little") for i in range(0, len(g.blob), 4)]
    houses, stride, nc, boxes = ints[:4]
    assert (houses, nc, boxes) == (27, 1, 1) and stride == 23
    assert len(ints) == 4 + 27 * 9 + 81 * stride + 81 * 4
    assert geometry(SUDOKU, Rules("jigsaw:" + JIGSAW9)).blob[12:16] == bytes(4)


@pytest.mark.parametrize("shape", [Shape(2, 2), SUDOKU], ids=str)
def test_implied_windows_hold_in_every_solution(shape: Shape) -> None:
    """Random grids made with only the real windows as extra houses keep the implied ones."""
    g = geometry(shape, Rules("windoku"))
    n = shape.n
    real = [h for h, name in zip(g.houses, g.house_names, strict=True) if "implied" not in name]
    implied = [h for h, name in zip(g.houses, g.house_names, strict=True) if "implied" in name]
    assert len(implied) == 2 * shape.box_rows - 1
    peers = rules_oracle.peers_of(real, shape.size)
    rng = random.Random(29)
    for _ in range(40 if n == 9 else 100):
        count, grid = rules_oracle.search(peers, [()] * shape.size, n, [0] * shape.size, 1, rng)
        assert count == 1 and grid is not None
        for house in implied:
            assert sorted(grid[c] for c in house) == list(range(1, n + 1))
