"""Killer puzzles in every form sudokit writes: each reads back, cages and all, with no
option telling the reader the rules (records carry ``rules=killer:<cage map>/<sums>``)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from killer_grids import solo_killers
from killer_oracle import random_layout
from sudokit import Grid, InvalidPuzzleError, InvalidRulesError, Rules, Shape, random_grid, solve
from sudokit.cages import Cage, Cages
from sudokit.formats import PuzzleSource, from_ipuz, to_ipuz
from sudokit.formats.fpuzzles import from_fpuzzles
from sudokit.generator import Generated
from sudokit.output import RECORD_FORMATS, format_record

KILLER4 = "killer:ABBC AADC EEDF EGGG / 6,5,6,5,9,1,8"


def _generated(grid: Grid) -> Generated:
    solution = solve(grid)
    assert solution is not None
    return Generated(grid, solution, 7, 3, "none", None, None, 1)


@pytest.mark.parametrize("fmt", [f for f in RECORD_FORMATS if f != "csv"])
@pytest.mark.parametrize("index", [0, 119])
def test_every_record_form_reads_back_with_its_cages(fmt: str, index: int) -> None:
    grid = solo_killers()[index]  # zero givens, as solo makes them
    made = _generated(grid)
    for with_solution in (False, True):
        text = format_record(made, fmt, with_solution=with_solution)
        if fmt in ("line", "pretty"):
            assert f"rules={grid.rules}" in text
        (record,) = list(PuzzleSource(text).records())
        assert record.grid == grid and record.grid is not None
        assert record.grid.rules == grid.rules and record.grid.rules.cages is not None
        if with_solution and fmt in ("fpuzzles", "ipuz"):
            assert "solution" in json.loads(text)


def _killer_x() -> Grid:
    """A 4x4 killer-X with one given: cages cut from a random X grid."""
    solution = random_grid(Shape(2, 2), rules="x", seed=3).cells
    layout = random_layout(solution, 4, random.Random(3), 3)
    cages = Cages(4, [Cage(tuple(c), sum(solution[x] for x in c)) for c in layout])
    return Grid.from_cells(
        bytes([solution[0]]) + bytes(15), Shape(2, 2), rules=Rules.of(["x"], cages=cages)
    )


def test_a_killer_with_givens_and_x_reads_back() -> None:
    grid = _killer_x()
    for text in (grid.to_json(), grid.to_pretty(), json.dumps(to_ipuz(grid))):
        back = Grid(text) if not text.startswith('{"version"') else from_ipuz(text)
        assert back == grid and back.rules == grid.rules
    made = _generated(grid)
    for fmt in ("fpuzzles", "link", "line"):
        (record,) = list(PuzzleSource(format_record(made, fmt)).records())
        assert record.grid == grid and record.grid is not None
        assert record.grid.rules == grid.rules


def test_ipuz_cages_are_calcspecs_counted_from_one() -> None:
    grid = solo_killers()[5]
    data = to_ipuz(grid)
    cages = grid.rules.cages
    assert cages is not None
    assert data["cageborder"] == "dashed" and data["showoperators"] is False
    assert len(data["cages"]) == len(cages)
    first = data["cages"][0]
    assert first["value"] == cages[0].total and first["operator"] == "+"
    assert [(r - 1) * 9 + (c - 1) for c, r in first["cells"]] == list(cages[0].cells)
    # read back without sudokit's own field: the cages alone give the rules
    plain = {k: v for k, v in data.items() if k != "sudokit:rules"}
    assert from_ipuz(plain) == grid and from_ipuz(plain).rules == grid.rules
    # counted from 0, as some writers do, and a sum written as text
    zero = [
        {"cells": [[c - 1, r - 1] for c, r in spec["cells"]], "value": str(spec["value"])}
        for spec in plain["cages"]
    ]
    assert from_ipuz(plain | {"cages": zero}).rules == grid.rules


def _hand(cages: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "version": "http://ipuz.org/v2",
        "kind": ["http://ipuz.org/sudoku#1"],
        "puzzle": [[0] * 4 for _ in range(4)],
        "charset": "1234",
        "cages": cages,
    }


@pytest.mark.parametrize(
    ("cages", "error", "message"),
    [
        ([{"cells": [[1, 1], [2, 1]], "value": 3, "operator": "*"}], InvalidPuzzleError, "'\\*'"),
        ([{"cells": [[1, 1], [2, 1]], "value": "x"}], InvalidPuzzleError, "\"value\" 'x'"),
        ([{"cells": [[1, 1], [9, 1]], "value": 3}], InvalidPuzzleError, r"\[9, 1\] is not a cell"),
        ([{"value": 3}], InvalidPuzzleError, 'needs "cells"'),
        ([{"cells": [[1, 1], [3, 1]], "value": 4}], InvalidRulesError, "cage 4 at r1c1 is not"),
        ([{"cells": [[1, 1], [2, 1]], "value": 30}], InvalidRulesError, "cage 30 at r1c1: no 2"),
        (
            [{"cells": [[1, 1], [2, 1]], "value": 3}, {"cells": [[2, 1]], "value": 2}],
            InvalidRulesError,
            "overlap at r1c2",
        ),
    ],
)
def test_bad_ipuz_cages_are_named(
    cages: list[dict[str, Any]], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        from_ipuz(_hand(cages))


def test_stated_rules_must_agree_with_the_cages() -> None:
    grid = Grid("." * 16, shape=Shape(2, 2), rules=KILLER4)
    data = to_ipuz(grid)
    data["cages"][0]["value"] = 7
    with pytest.raises(InvalidPuzzleError, match="differs from the houses its zones make"):
        from_ipuz(data)


def test_fpuzzles_object_reads_back() -> None:
    from sudokit.formats.fpuzzles import to_fpuzzles

    grid = solo_killers()[9]
    assert from_fpuzzles(to_fpuzzles(grid)).rules == grid.rules


def test_canon_lines_state_the_canonical_cages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from sudokit import canonical, canonical_id
    from sudokit.cli import main

    grids = list(solo_killers()[20:23])
    source = tmp_path / "k.txt"
    source.write_text("".join(format_record(_generated(g), "line") for g in grids))
    assert main(["canon", "--id", str(source)]) == 0
    lines = capsys.readouterr().out.splitlines()
    for line, g in zip(lines, grids, strict=True):
        assert line.split()[1] == canonical_id(g)
        (record,) = list(PuzzleSource(line + "\n").records())
        assert record.grid == canonical(g).grid and record.grid is not None
        assert record.grid.rules == canonical(g).grid.rules
