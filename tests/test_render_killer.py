"""Killer cages in pictures: dotted outlines inset in their cells and sums in the top-left
corner, in SVG and PDF books, with room left for givens and pencil marks."""

from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from killer_grids import solo_killers
from sudokit import Grid, Rules, Shape
from sudokit.formats.statement import rules_statement
from sudokit.render.marks import CAGE_INSET, CAGE_SUM_ROOM, cage_outline, rule_marks
from sudokit.render.pdf import book
from sudokit.render.svg import CELL, MARGIN, svg


def _elements(picture: str, role: str) -> list[ET.Element]:
    root = ET.fromstring(picture)
    return [e for e in root.iter() if role in (e.get("class") or "").split()]


def _loops(d: str) -> list[list[tuple[float, float]]]:
    """The closed paths of an SVG path's ``d`` (M x yL x y...Z), in cell units."""
    out = []
    for part in d.split("Z"):
        if part:
            points = re.findall(r"([-\d.]+) ([-\d.]+)", part)
            out.append(
                [((float(x) - MARGIN) / CELL, (float(y) - MARGIN) / CELL) for x, y in points]
            )
    return out


@pytest.mark.parametrize("index", [0, 45, 119])
def test_svg_draws_each_cage_and_its_sum(index: int) -> None:
    grid = solo_killers()[index]
    cages = grid.rules.cages
    assert cages is not None
    picture = svg(grid)
    outlines = _elements(picture, "cage")
    sums = _elements(picture, "cage-sum")
    assert len(outlines) == len(cages) == len(sums)
    for path, text, cage in zip(outlines, sums, cages, strict=True):
        assert path.get("stroke-dasharray") and path.get("fill") == "none"
        assert text.text == str(cage.total)
        # the sum sits in the top-left corner of the cage's first cell
        r, c = divmod(cage.cells[0], 9)
        x, y = float(text.get("x", 0)), float(text.get("y", 0))
        assert MARGIN + c * CELL < x < MARGIN + (c + 0.2) * CELL
        assert MARGIN + r * CELL < y < MARGIN + (r + CAGE_SUM_ROOM) * CELL
        # every corner of the outline lies inside a cell of the cage, off its lines
        inside = set(cage.cells)
        for loop in _loops(path.get("d", "")):
            for px, py in loop:
                cell = int(py) * 9 + int(px)
                assert cell in inside
                assert min(px % 1, 1 - px % 1, py % 1, 1 - py % 1) == pytest.approx(CAGE_INSET)
    statement = " ".join(t.text or "" for t in _elements(picture, "rules"))
    assert statement == rules_statement(grid.rules, 9)


def test_outline_goes_round_the_cage() -> None:
    # an L of three cells: six corners, the notch inside the bend
    assert cage_outline((0, 1, 4), 3) == (
        ((0.1, 0.1), (1.9, 0.1), (1.9, 1.9), (1.1, 1.9), (1.1, 0.9), (0.1, 0.9)),
    )
    # a plus: twelve corners, the four notches past the cell corners
    (plus,) = cage_outline((1, 3, 4, 5, 7), 3)
    assert len(plus) == 12 and (1.9, 1.1) in plus and (1.1, 1.1) in plus
    # a ring of eight round a hole: an outer path and an inner one
    outer, inner = cage_outline((0, 1, 2, 3, 5, 6, 7, 8), 3)
    assert outer == ((0.1, 0.1), (2.9, 0.1), (2.9, 2.9), (0.1, 2.9))
    assert sorted(inner) == [(0.9, 0.9), (0.9, 2.1), (2.1, 0.9), (2.1, 2.1)]


def test_givens_and_pencil_marks_keep_clear_of_the_sums() -> None:
    rules = Rules("killer:ABBC AADC EEDF EGGG / 6,5,6,5,9,1,8")
    grid = Grid("3" + "." * 15, shape=Shape(2, 2), rules=rules)
    picture = svg(grid, candidates=[0b1111] * 16)
    (given,) = _elements(picture, "clue")
    assert given.text == "3"
    sums = _elements(picture, "cage-sum")
    assert [s.text for s in sums] == ["6", "5", "6", "5", "9", "1", "8"]
    lowest_sum = max(float(s.get("y", 0)) for s in sums if float(s.get("y", 0)) < MARGIN + CELL)
    marks = [m for m in _elements(picture, "candidate") if float(m.get("y", 0)) < MARGIN + CELL]
    assert marks and all(
        float(m.get("y", 0)) - float(m.get("font-size") or 0) * 0.8 > lowest_sum
        or float(m.get("x", 0)) > MARGIN + CELL  # a cell of the top row without a sum
        for m in marks
    )
    assert len(marks) == 3 * 4  # the given's cell has none


def test_marks_of_killer_rules_combine_with_others() -> None:
    text = "killer:ABBC AADC EEDF EGGG / 6,5,6,5,9,1,8+x"
    marks = rule_marks(Shape(2, 2), Rules(text))
    assert marks.diagonals and len(marks.cages) == 7 and len(marks.cage_sums) == 7
    assert "Killer" in marks.statement and "Sudoku-X" in marks.statement


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext (poppler) missing")
def test_pdf_book_prints_the_sums(tmp_path: Path) -> None:
    grid = solo_killers()[3]
    cages = grid.rules.cages
    assert cages is not None
    path = tmp_path / "killer.pdf"
    book([(grid, None)], path, per_page=1, labels=())
    page = subprocess.run(
        ["pdftotext", "-f", "1", "-l", "1", str(path), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    words = page.replace("Killer: the digits of each dotted cage differ and add up to its sum.", "")
    numbers = sorted(int(w) for w in words.split() if w.isdigit())
    expected = sorted([cage.total for cage in cages] + [1])  # and the page number
    assert numbers == expected
    assert "Killer: the digits of each dotted cage" in page
