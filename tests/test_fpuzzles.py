"""f-puzzles / SudokuPad JSON and links, and the lz-string base64 they are compressed with."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from sudokit import Grid, InvalidPuzzleError, InvalidRulesError, Rules, Shape, random_grid
from sudokit.formats import fpuzzles_url, from_fpuzzles, sudokupad_url, to_fpuzzles
from sudokit.formats.lzstring import compress_to_base64, decompress_from_base64
from test_formats_rules import IDS, JIGSAW9, RULE_SETS, puzzle_of

#: Links made by f-puzzles itself (published in other projects' tests): a 9x9 with two givens,
#: and a killer puzzle (a rule sudokit does not read yet).
TWO_GIVENS = (
    "https://f-puzzles.com/?load=N4IgzglgXgpiBcBOANCA5gJwgEwQbT2AF9ljSSzKLryBdZQmq8l54+x1kANw"
    "EMAbAK5x4ARlRoI3GADsEAFwzCmK1kQ5tVmug216VGrUbWG1ZyjwHCEAJglTZCpTAO7j+nZw/7atIkA="
)
KILLER = (
    "https://www.f-puzzles.com/?load=N4IgzglgXgpiBcBOANCA5gJwgEwQbT2AF9ljSSzKLryBdZQmq8l54+x1"
    "p7rjtn/nQaCR3PgIm9hk0UM6zR4rssX0QAawgAbLTAwBjAIZo48QiH0wdYfCABKARgDCDkKjsAmFyDUA3Q1oArqY"
    "giCAUFlZaNmb2zh5ucU4AzImeTgnuXqnuyRk+qP5BIcmpRGqG+gAuEL4wTgD2AHZgVRiGEE1VMXggANLauhgABE7"
    "GcLREQA="
)

#: The fields of f-puzzles' puzzle JSON that sudokit writes, as its published type lists them
#: (FPuzzlesJson: size, grid cells' value/given/region, diagonal+, diagonal-, antiknight,
#: antiking, disjointgroups, nonconsecutive, extraregion, title, author, ruleset, solution).
PUBLISHED = {
    "size",
    "grid",
    "diagonal+",
    "diagonal-",
    "antiknight",
    "antiking",
    "disjointgroups",
    "nonconsecutive",
    "extraregion",
    "title",
    "author",
    "ruleset",
    "solution",
}
PUBLISHED_CELL = {"value", "given", "region"}


# lz-string ---------------------------------------------------------------------------------


def test_lzstring_known_vectors() -> None:
    # lz-string's own test vector, and a link's payload another project documents as {"x":3}
    assert compress_to_base64("Hello, world!") == "BIUwNmD2A0AEDukBOYAmBCIA"
    assert decompress_from_base64("BIUwNmD2A0AEDukBOYAmBCIA") == "Hello, world!"
    assert decompress_from_base64("N4IgHiBcDMC+Q===") == '{"x":3}'
    assert compress_to_base64('{"x":3}') == "N4IgHiBcDMC+Q==="
    # links f-puzzles made: unpacked and packed again, bit for bit
    for link in (TWO_GIVENS, KILLER):
        packed = link.split("load=")[1]
        text = decompress_from_base64(packed)
        assert json.loads(text)["size"] == 9
        assert compress_to_base64(text) == packed


def test_lzstring_round_trips() -> None:
    rng = random.Random(5)
    alphabets = ['ab{}":,0123456789', "aé€✓", "a😀𝄞b"]  # ASCII, BMP, surrogate pairs
    for _ in range(300):
        text = "".join(rng.choice(rng.choice(alphabets)) for _ in range(rng.randrange(1, 500)))
        packed = compress_to_base64(text)
        assert len(packed) % 4 == 0
        assert decompress_from_base64(packed) == text
    assert compress_to_base64("") == "Q==="
    assert decompress_from_base64("Q===") == ""


def test_lzstring_bad_input() -> None:
    with pytest.raises(ValueError, match=r"'\*' at character 3 is not a base64 character"):
        decompress_from_base64("BI*wNmD2")
    with pytest.raises(ValueError, match="ends before its end mark"):
        decompress_from_base64("BIUwNmD2A0AE")
    with pytest.raises(ValueError, match="empty text"):
        decompress_from_base64("")


# f-puzzles JSON ----------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "shape"), RULE_SETS, ids=IDS)
def test_round_trip(rules: str, shape: Shape) -> None:
    g = puzzle_of(rules, shape)
    data = to_fpuzzles(g)
    assert set(data) <= PUBLISHED
    assert {k for row in data["grid"] for cell in row for k in cell} <= PUBLISHED_CELL
    for form in (data, json.dumps(data), fpuzzles_url(g), sudokupad_url(g)):
        back = from_fpuzzles(form)
        assert back == g and back.rules == Rules(rules) and back.shape == shape
    assert fpuzzles_url(g).startswith("https://www.f-puzzles.com/?load=N4Ig")
    assert sudokupad_url(g).startswith("https://sudokupad.app/fpuzzlesN4Ig")


def test_written_fields() -> None:
    g = Grid("1" + "." * 80, rules="x+windoku+antiking")
    data = to_fpuzzles(g, title="T", author="A", solution=random_grid(seed=1))
    assert data["diagonal+"] is data["diagonal-"] is data["antiking"] is True
    assert "antiknight" not in data and "nonconsecutive" not in data
    assert data["extraregion"][0] == {
        "cells": ["R2C2", "R2C3", "R2C4", "R3C2", "R3C3", "R3C4", "R4C2", "R4C3", "R4C4"]
    }
    assert len(data["extraregion"]) == 4
    assert data["ruleset"].startswith("Sudoku-X: each diagonal also holds 1-9.")
    assert data["title"] == "T" and data["author"] == "A" and len(data["solution"]) == 81
    assert data["grid"][0][:2] == [{"value": 1, "given": True}, {}]
    # classic 9x9: boxes are f-puzzles' default, so no region is written and no rule field
    plain = to_fpuzzles(Grid("1" + "." * 80))
    assert set(plain) == {"size", "grid"}
    # a 6x6 of 3x2 boxes is not f-puzzles' default (2x3): every cell names its region
    tall = to_fpuzzles(Grid.empty(Shape(3, 2)))
    assert [c["region"] for c in tall["grid"][0]] == [0, 0, 1, 1, 2, 2]
    assert from_fpuzzles(tall).shape == Shape(3, 2)


def _hand_written() -> dict[str, Any]:
    """A 9x9 f-puzzles puzzle written out by hand, every rule field named."""
    grid: list[list[dict[str, Any]]] = [[{} for _ in range(9)] for _ in range(9)]
    grid[0][0] = {"value": 1, "given": True, "c": "#a8a8a8a8"}
    grid[0][1] = {"value": 5}  # a solver's entry: no clue
    grid[8][8] = {"value": 9, "given": True, "centerPencilMarks": [1, 2]}
    return {
        "size": 9,
        "title": "hand made",
        "author": "a test",
        "ruleset": "whatever the author wrote",
        "highlightConflicts": True,
        "grid": grid,
        "diagonal+": True,
        "diagonal-": True,
        "antiknight": False,
        "antiking": False,
        "disjointgroups": False,
        "nonconsecutive": False,
        "arrow": [],  # an empty list of a rule sudokit lacks: no rule
    }


@pytest.mark.parametrize(
    ("fields", "rules"),
    [
        ({}, "x"),
        ({"antiknight": True}, "x+antiknight"),
        ({"antiking": True}, "x+antiking"),
        ({"disjointgroups": True}, "x+dg"),
        ({"nonconsecutive": True}, "x+nc"),
        ({"diagonal+": False, "diagonal-": False, "nonconsecutive": True}, "nc"),
    ],
)
def test_reads_hand_written_json(fields: dict[str, Any], rules: str) -> None:
    data = _hand_written() | fields
    g = from_fpuzzles(json.dumps(data))
    assert g.rules == Rules(rules)
    assert g.to_line() == "1" + "." * 79 + "9"


def test_reads_windows_and_regions_by_hand() -> None:
    windows = [
        {"cells": [f"R{r}C{c}" for r in range(top, top + 3) for c in range(left, left + 3)]}
        for top in (2, 6)
        for left in (2, 6)
    ]
    data = _hand_written() | {"extraregion": windows[::-1], "diagonal+": False, "diagonal-": False}
    assert from_fpuzzles(data).rules == Rules("windoku")
    regions = [int(ch) - 1 for ch in JIGSAW9]
    jig = _hand_written()
    for cell, label in enumerate(regions):
        jig["grid"][cell // 9][cell % 9]["region"] = label
    g = from_fpuzzles(jig)
    assert g.rules == Rules("jigsaw:" + JIGSAW9 + "+x") and g.shape == Shape(3, 3)
    # regions that are just the boxes, numbered any way, are classic boxes
    boxed = _hand_written()
    for cell in range(81):
        boxed["grid"][cell // 9][cell % 9]["region"] = 8 - Shape(3, 3).box_of(cell)
    assert from_fpuzzles(boxed).rules == Rules("x")


def test_reads_a_link_f_puzzles_made() -> None:
    g = from_fpuzzles(TWO_GIVENS)
    assert g.rules.is_classic and g.clue_count == 2
    assert g[2 * 9 + 2] == 1 and g[6 * 9 + 6] == 2
    # a link pasted where "+" became a space or was %-escaped still reads
    assert from_fpuzzles(TWO_GIVENS.replace("+", " ")) == g
    assert from_fpuzzles(TWO_GIVENS.replace("+", "%2B").replace("/", "%2F")) == g


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"arrow": [{"lines": [["R1C1", "R1C2"]]}]}, "constraint 'arrow' is not"),
        (
            {"killercage": [{"cells": ["R1C1", "R1C2"]}]},
            r"killercage\" 1 \(at r1c1\): its sum None",
        ),
        ({"killercage": [{"cells": ["R1C1", "R9C9"], "value": "5"}]}, "not connected"),
        ({"killercage": [{"cells": ["R1C1", "R1C2"], "value": "18"}]}, "add up to 18"),
        ({"killercage": [{"cells": ["R1C10"], "value": "1"}]}, "'R1C10' is not a cell"),
        ({"thermometer": [{"lines": [["R1C1", "R1C2"]]}]}, "constraint 'thermometer' is not"),
        ({"size": 3}, r'"size" 3: sudokit reads sizes 4 to 16'),
        ({"size": 17}, r'"size" 17'),
        ({"size": 8}, r'"grid": expected 8 rows \(size 8\), got 9'),
        ({"diagonal-": False}, "'diagonal\\+' without 'diagonal-'"),
        ({"antiknight": "yes"}, "'antiknight' must be true or false"),
        ({"extraregion": [{"cells": ["R1C1", "R1C2"]}]}, "only as windoku's 4 windows"),
        ({"extraregion": [{"cells": ["R0C1"]}]}, "'R0C1' is not a cell R1C1-R9C9"),
    ],
)
def test_bad_input_is_named(change: dict[str, Any], message: str) -> None:
    with pytest.raises((InvalidPuzzleError, InvalidRulesError), match=message):
        from_fpuzzles(_hand_written() | change)


def test_bad_cells_and_regions_are_named() -> None:
    data = _hand_written()
    data["grid"][3][4] = {"value": 10, "given": True}
    with pytest.raises(InvalidPuzzleError, match='"grid" at r4c5: given 10 is not a digit 1-9'):
        from_fpuzzles(data)
    data = _hand_written()
    data["grid"][2] = data["grid"][2][:8]
    with pytest.raises(InvalidPuzzleError, match="row 3 has 8 cells, not 9"):
        from_fpuzzles(data)
    data = _hand_written()
    data["grid"][0][0]["region"] = 1  # region 1 gets ten cells, region 0 eight
    with pytest.raises(InvalidPuzzleError, match="f-puzzles regions: jigsaw region .* has"):
        from_fpuzzles(data)
    data = _hand_written()
    data["grid"][0][0]["region"] = None
    with pytest.raises(InvalidPuzzleError, match="r1c1: region None is not a region number"):
        from_fpuzzles(data)
    with pytest.raises(InvalidPuzzleError, match="f-puzzles link: .* not a base64 character"):
        from_fpuzzles("https://www.f-puzzles.com/?load=N4Ig*")
    with pytest.raises(InvalidPuzzleError, match="f-puzzles JSON"):
        from_fpuzzles("{not json")
    # clues breaking the rules the file states are refused under them
    data = _hand_written()
    data["grid"][4][4] = {"value": 1, "given": True}
    with pytest.raises(InvalidPuzzleError, match=r"r1c1 and r5c5 \(diagonal 1\)"):
        from_fpuzzles(data)
    # rules that do not fit together
    with pytest.raises(InvalidRulesError, match="dg .* needs boxes"):
        from_fpuzzles(
            to_fpuzzles(Grid("." * 81, rules="jigsaw:" + JIGSAW9)) | {"disjointgroups": True}
        )


def test_killer_cages_round_trip_as_killercage() -> None:
    grid = Grid(
        "3" + "." * 15, shape=Shape(2, 2), rules="killer:ABBC AADC EEDF EGGG / 6,5,6,5,9,1,8"
    )
    data = to_fpuzzles(grid)
    assert data["killercage"][0] == {"cells": ["R1C1", "R2C1", "R2C2"], "value": "6"}
    assert len(data["killercage"]) == 7 and "Killer" in data["ruleset"]
    back = from_fpuzzles(fpuzzles_url(grid))
    assert back == grid and back.rules == grid.rules
    plain = from_fpuzzles(json.dumps(data | {"killercage": [{"cells": ["R1C1"], "value": 3}]}))
    assert str(plain.rules) == "killer:A.............../3"
