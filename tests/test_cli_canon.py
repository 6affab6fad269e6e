"""``sudokit canon``: called as ``main([...])``, output read from capsys or files.

The command is a thin layer over :mod:`sudokit.canon`; these tests check what the layer adds:
input order, ids, dedupe across isomorphs, formats, shapes mixed in one file, and bad lines
reported with their numbers while the rest still goes through.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from sudokit import Grid, Shape, Transform, canonical, canonical_id, generate, random_grid
from sudokit.cli import main

Capture = pytest.CaptureFixture[str]

PUZZLE = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
OTHER = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"


def _isomorph(line: str, seed: int) -> str:
    grid = Grid(line)
    return Transform.random(grid.shape, random.Random(seed)).apply(grid).to_line()


def _write(path: Path, lines: list[str]) -> str:
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return str(path)


def test_each_puzzle_in_input_order_with_ids(tmp_path: Path, capsys: Capture) -> None:
    lines = [PUZZLE, _isomorph(PUZZLE, 1), OTHER, _isomorph(OTHER, 2), _isomorph(PUZZLE, 3)]
    assert main(["canon", _write(tmp_path / "in.txt", lines), "--id"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    rows = [row.split(" ") for row in out.splitlines()]
    assert len(rows) == len(lines)
    for (form, key), line in zip(rows, lines, strict=True):
        assert form == canonical(Grid(line)).grid.to_line()
        assert key == canonical_id(Grid(line))
    assert rows[0] == rows[1] == rows[4] and rows[2] == rows[3] and rows[0] != rows[2]


def test_dedupe_keeps_the_first_of_each_class(tmp_path: Path, capsys: Capture) -> None:
    lines = [PUZZLE, _isomorph(PUZZLE, 1), OTHER, _isomorph(OTHER, 2), _isomorph(PUZZLE, 3)]
    assert main(["canon", _write(tmp_path / "in.txt", lines), "--dedupe"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [canonical(Grid(PUZZLE)).grid.to_line(), canonical(Grid(OTHER)).grid.to_line()]


def test_bad_lines_are_reported_and_the_rest_goes_on(tmp_path: Path, capsys: Capture) -> None:
    conflict = "11" + "." * 79
    lines = [PUZZLE, "not a puzzle", conflict, OTHER]
    assert main(["canon", _write(tmp_path / "in.txt", lines)]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines() == [canonical(Grid(p)).grid.to_line() for p in (PUZZLE, OTHER)]
    assert "line 2" in err and "line 3" in err and "conflict" in err


def test_formats_and_mixed_shapes(tmp_path: Path, capsys: Capture) -> None:
    small = generate(shape=Shape(2, 3), seed=4).puzzle
    pretty = Grid(PUZZLE).to_pretty()
    path = tmp_path / "in.txt"
    path.write_text(f"{small.to_line()} # shape=2x3\n\n{pretty}\n", encoding="utf-8")
    assert main(["canon", str(path), "--format", "json", "--id"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    first, second = (json.loads(row) for row in out.splitlines())
    assert first["shape"] == "2x3" and first["id"] == canonical_id(small)
    assert Grid(first["cells"], shape=Shape(2, 3)) == canonical(small).grid
    assert second["id"] == canonical_id(Grid(PUZZLE))
    # without --format each puzzle answers in its own form: a pretty grid stays pretty
    assert main(["canon", str(path), "--id"]) == 0
    out = capsys.readouterr().out
    assert canonical(Grid(PUZZLE)).grid.to_pretty() in out
    assert f"# {canonical_id(Grid(PUZZLE))}" in out


def test_complete_grids_are_taken(capsys: Capture) -> None:
    grid = random_grid(seed=5)
    assert main(["canon", _isomorph(grid.to_line(), 9)]) == 0
    assert capsys.readouterr().out.strip() == canonical(grid).grid.to_line()
