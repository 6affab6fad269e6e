"""ipuz Sudoku files: every rule set written and read back; hand-written files; bad input."""

from __future__ import annotations

import json
from typing import Any

import pytest

from sudokit import Grid, InvalidPuzzleError, InvalidRulesError, Rules, Shape, random_grid
from sudokit.formats import from_ipuz, to_ipuz
from test_formats_rules import IDS, JIGSAW9, RULE_SETS, puzzle_of

#: The fields of an ipuz Sudoku (ipuz's Sudoku kind), and those any ipuz puzzle may have.
SUDOKU_FIELDS = {
    "charset",
    "displaycharset",
    "boxes",
    "showoperators",
    "cageborder",
    "puzzle",
    "saved",
    "solution",
    "zones",
    "cages",
}
COMMON_FIELDS = {"version", "kind", "title", "intro", "author", "notes"}


@pytest.mark.parametrize(("rules", "shape"), RULE_SETS, ids=IDS)
def test_round_trip(rules: str, shape: Shape) -> None:
    g = puzzle_of(rules, shape)
    data = to_ipuz(g)
    assert set(data) <= SUDOKU_FIELDS | COMMON_FIELDS | {"sudokit:rules"}
    assert data["kind"] == ["http://ipuz.org/sudoku#1"]
    for form in (data, json.dumps(data)):
        back = from_ipuz(form)
        assert back == g and back.rules == Rules(rules) and back.shape == shape
    # without sudokit's own field, the zones alone give the houses back
    plain = {k: v for k, v in data.items() if k != "sudokit:rules"}
    neighbourly = {"antiknight", "antiking", "nc"} & set(Rules(rules).extras)
    if not neighbourly:
        assert from_ipuz(plain) == g


def test_written_zones() -> None:
    g = Grid("1" + "." * 80, rules="x+windoku")
    data = to_ipuz(g, solution=random_grid(seed=1), title="T")
    assert data["boxes"] is True and data["title"] == "T"
    assert data["puzzle"][0][:2] == [1, 0] and len(data["solution"]) == 9
    zones = [z["cells"] for z in data["zones"]]
    assert len(zones) == 6  # two diagonals, four windows (the implied ones are not drawn)
    assert zones[0] == [[i, i] for i in range(1, 10)]
    assert zones[1][0] == [9, 1]  # [column, row]: the anti-diagonal starts top right
    assert zones[2][0] == [2, 2]
    assert data["intro"].startswith("Sudoku-X") and data["sudokit:rules"] == "x+windoku"
    jig = to_ipuz(Grid("." * 81, rules="jigsaw:" + JIGSAW9))
    assert jig["boxes"] is False and len(jig["zones"]) == 9
    plain = to_ipuz(Grid("." * 81))
    assert "zones" not in plain and "intro" not in plain and plain["boxes"] is True


def _hand_written() -> dict[str, Any]:
    puzzle: list[list[int | str]] = [[0] * 9 for _ in range(9)]
    puzzle[0][0] = 1
    puzzle[8][8] = "9"
    return {
        "version": "http://ipuz.org/v2",
        "kind": ["http://ipuz.org/sudoku#1"],
        "charset": "123456789",
        "puzzle": puzzle,
    }


def test_reads_hand_written_files() -> None:
    assert from_ipuz(_hand_written()).to_line() == "1" + "." * 79 + "9"
    diagonals: list[dict[str, Any]] = [
        {"cells": [[i, i] for i in range(1, 10)]},
        {"cells": [[10 - i, i] for i in range(1, 10)], "style": {"shapebg": "circle"}},
    ]
    assert from_ipuz(_hand_written() | {"zones": diagonals}).rules == Rules("x")
    # zones counted from 0, as some writers do, read as well
    zero = [{"cells": [[x - 1, y - 1] for x, y in z["cells"]]} for z in diagonals]
    assert from_ipuz(_hand_written() | {"zones": zero}).rules == Rules("x")
    regions = [
        {"cells": [[c % 9 + 1, c // 9 + 1] for c in range(81) if JIGSAW9[c] == label]}
        for label in "123456789"
    ]
    g = from_ipuz(_hand_written() | {"boxes": False, "zones": regions[::-1] + diagonals})
    assert g.rules == Rules("jigsaw:" + JIGSAW9 + "+x")
    nc = from_ipuz(_hand_written() | {"sudokit:rules": "nc"})
    assert nc.rules == Rules("nc")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"kind": ["http://ipuz.org/crossword#1"]}, "not a Sudoku"),
        ({"puzzle": [[0] * 3] * 3}, '"puzzle": 3 rows'),
        ({"charset": "12345678"}, '"charset" .*needs 9 symbols'),
        ({"zones": [{"cells": [[1, 1], [2, 1], [3, 1]]}]}, "a zone of 3 cells is no house"),
        ({"zones": [{"cells": [[1, 12]]}]}, r"\[1, 12\] is not a cell \[column, row\]"),
        ({"boxes": False}, "split the grid into 9 regions; the zones left make 0"),
        ({"sudokit:rules": 7}, '"sudokit:rules" must be text'),
    ],
)
def test_bad_input_is_named(change: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidPuzzleError, match=message):
        from_ipuz(_hand_written() | change)


def test_stated_rules_must_agree_with_the_zones() -> None:
    with pytest.raises(InvalidRulesError, match="unknown rule 'zigzag'"):
        from_ipuz(_hand_written() | {"sudokit:rules": "zigzag"})
    x_zones = to_ipuz(Grid("." * 81, rules="x"))["zones"]
    with pytest.raises(InvalidPuzzleError, match="'dg' differs from the houses its zones make"):
        from_ipuz(_hand_written() | {"sudokit:rules": "dg", "zones": x_zones})


def test_bad_cells_are_named() -> None:
    data = _hand_written()
    data["puzzle"][2][3] = "X"
    with pytest.raises(InvalidPuzzleError, match="\"puzzle\" at r3c4: 'X' is not a digit"):
        from_ipuz(data)
    data = _hand_written()
    data["puzzle"][4][4] = 1  # r1c1 holds 1 too: the diagonal
    with pytest.raises(InvalidPuzzleError, match=r"r1c1 and r5c5 \(diagonal 1\)"):
        from_ipuz(
            data | {"sudokit:rules": "x", "zones": to_ipuz(Grid("." * 81, rules="x"))["zones"]}
        )
    with pytest.raises(InvalidPuzzleError, match="ipuz JSON"):
        from_ipuz("{oops")
