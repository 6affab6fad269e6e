"""Grid text forms for grids with rules: the pretty and JSON forms state the rules and read
them back, for every rule set."""

from __future__ import annotations

import json
import random

import pytest

from sudokit import Grid, InvalidPuzzleError, InvalidRulesError, Rules, Shape, random_grid
from sudokit.formats import format_grid, from_json, parse_grid

JIGSAW9 = "111222333111222333114522333144552666444555666444555966777888996777888999777888999"
JIGSAW6 = "222211332411332411334444556666555566"
#: Every rule set, and combinations, with a shape each fits.
RULE_SETS = [
    ("x", Shape(3, 3)),
    ("windoku", Shape(3, 3)),
    ("dg", Shape(3, 3)),
    ("antiknight", Shape(3, 3)),
    ("antiking", Shape(3, 3)),
    ("nc", Shape(3, 3)),
    ("jigsaw:" + JIGSAW9, Shape(3, 3)),
    ("x+windoku", Shape(3, 3)),
    ("antiknight+x", Shape(3, 3)),
    ("jigsaw:" + JIGSAW9 + "+x", Shape(3, 3)),
    ("jigsaw:" + JIGSAW6, Shape(2, 3)),
    ("x", Shape(2, 3)),
    ("windoku", Shape(4, 4)),
]
IDS = [
    f"{r.replace(JIGSAW9, '9').replace(JIGSAW6, '6').replace(':', '')}-{s}" for r, s in RULE_SETS
]


def puzzle_of(rules: str, shape: Shape, seed: int = 1) -> Grid:
    """A grid of ``rules``: a random complete one with about half its cells emptied."""
    full = random_grid(shape, rules=rules, seed=seed)
    rng = random.Random(seed)
    puzzle = full
    for cell in rng.sample(range(shape.size), shape.size // 2):
        puzzle = puzzle.without(cell)
    return puzzle


@pytest.mark.parametrize(("rules", "shape"), RULE_SETS, ids=IDS)
def test_json_round_trip(rules: str, shape: Shape) -> None:
    g = puzzle_of(rules, shape)
    text = format_grid(g, "json")
    assert json.loads(text)["rules"] == str(Rules(rules))
    back = from_json(text)
    assert back == g and back.rules == Rules(rules) and back.shape == shape
    assert Grid(text) == g and parse_grid(text) == g


@pytest.mark.parametrize(("rules", "shape"), RULE_SETS, ids=IDS)
@pytest.mark.parametrize("separators", [True, False])
def test_pretty_round_trip(rules: str, shape: Shape, separators: bool) -> None:
    g = puzzle_of(rules, shape)
    text = g.to_pretty(separators=separators)
    assert text.splitlines()[0] == f"# rules={Rules(rules)} shape={shape}"
    back = Grid(text)
    assert back == g and back.rules == Rules(rules) and back.shape == shape
    assert parse_grid(text) == g


def test_classic_forms_unchanged() -> None:
    g = puzzle_of("classic", Shape(3, 3))
    assert type(g) is Grid
    assert "rules" not in json.loads(g.to_json())
    assert not g.to_pretty().startswith("#")
    assert type(Grid(g.to_json())) is Grid and type(Grid(g.to_pretty())) is Grid


def test_jigsaw_pretty_draws_region_borders() -> None:
    g = Grid("." * 81, rules="jigsaw:" + JIGSAW9)
    lines = g.to_pretty().splitlines()
    assert lines[1:6] == [
        ". . .|. . .|. . .",
        "     |     |",
        ". . .|. . .|. . .",
        "   +-+-+   |",
        ". .|.|.|. .|. . .",
    ]
    assert Grid(g.to_pretty()) == g
    assert g.to_pretty(separators=False).splitlines()[1] == ". " * 8 + "."


def test_json_rules_field_errors() -> None:
    with pytest.raises(InvalidPuzzleError, match=r'JSON "rules": .*unknown rule \'zigzag\''):
        Grid('{"shape": "3x3", "rules": "zigzag", "cells": "' + "." * 81 + '"}')
    with pytest.raises(InvalidPuzzleError, match='JSON "rules" must be text'):
        Grid('{"shape": "3x3", "rules": 7, "cells": "' + "." * 81 + '"}')
    # clues breaking the stated rules are refused under them
    clues = "1" + "." * 29 + "1" + "." * 50
    with pytest.raises(InvalidPuzzleError, match=r"r1c1 and r4c4 \(diagonal 1\)"):
        Grid('{"rules": "x", "cells": "' + clues + '"}')
    # the same clues under classic rules are fine
    assert Grid('{"cells": "' + clues + '"}').clue_count == 2


def test_stated_and_given_rules_must_agree() -> None:
    text = Grid("." * 81, rules="x").to_json()
    assert Grid(text, rules="x").rules == Rules("x")
    with pytest.raises(InvalidPuzzleError, match="states rules 'x', the rules given are 'nc'"):
        Grid(text, rules="nc")
    with pytest.raises(InvalidPuzzleError, match="states rules 'x', the rules given are 'classic'"):
        Grid(text, rules="classic")


def test_stated_rules_that_do_not_fit() -> None:
    text = '{"shape": "2x3", "rules": "windoku", "cells": "' + "." * 36 + '"}'
    with pytest.raises(InvalidRulesError, match="windoku needs square boxes"):
        Grid(text)
    pretty = "# rules=zigzag\n" + Grid("." * 81).to_pretty()
    with pytest.raises(InvalidPuzzleError, match="line 1: stated rules: .*unknown rule 'zigzag'"):
        Grid(pretty)
