"""Pictures of grids with rules: the SVG and the PDF book draw what each rule set adds (region
borders, diagonals, windows, groups) and state the rules under the grid; classic pictures are
unchanged."""

from __future__ import annotations

import io
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sudokit import Grid, Rules, Shape
from sudokit.formats.statement import rules_statement
from sudokit.render.pdf import book
from sudokit.render.svg import svg
from sudokit.rules import geometry
from test_formats_rules import IDS, JIGSAW9, RULE_SETS, puzzle_of
from unique_puzzles import unique_under

SVG = "{http://www.w3.org/2000/svg}"


def _elements(picture: str, role: str) -> list[ET.Element]:
    root = ET.fromstring(picture)
    return [e for e in root.iter() if role in (e.get("class") or "").split()]


def _thick_segments(picture: str) -> int:
    (thick,) = _elements(picture, "thick")
    return thick.get("d", "").count("M")


def _region_edges(shape: Shape, rules: Rules) -> int:
    """Side-touching cell pairs in different regions (the boxes without a jigsaw)."""
    n = shape.n
    region = rules.regions or tuple(shape.box_of(c) for c in range(shape.size))
    return sum(
        region[r * n + c] != region[r * n + c + 1] for r in range(n) for c in range(n - 1)
    ) + sum(region[r * n + c] != region[(r + 1) * n + c] for r in range(n - 1) for c in range(n))


@pytest.mark.parametrize(("rules", "shape"), RULE_SETS, ids=IDS)
def test_svg_draws_what_the_rules_add(rules: str, shape: Shape) -> None:
    grid = puzzle_of(rules, shape)
    value = Rules(rules)
    picture = svg(grid)
    assert _thick_segments(picture) == _region_edges(shape, value)
    assert len(_elements(picture, "diagonal")) == (2 if "x" in value.extras else 0)
    geo = geometry(shape, value)
    windows = [
        h for h, name in zip(geo.houses, geo.house_names, strict=True) if name.startswith("window ")
    ]
    shaded = _elements(picture, "window")
    assert len(shaded) == len(windows)
    for rect, house in zip(shaded, windows, strict=True):  # each shade covers its window
        k = round(float(rect.get("width", 0)) / 40)
        assert k * k == len(house)
    groups = _elements(picture, "group")
    if "dg" in value.extras:
        assert len(groups) == shape.size and len({g.get("fill") for g in groups}) == shape.n
        # cells at the same place in two boxes share a tint
        assert groups[0].get("fill") == groups[shape.box_cols].get("fill")
    else:
        assert not groups
    statement = " ".join(t.text or "" for t in _elements(picture, "rules"))
    assert statement == rules_statement(value, shape.n) and statement
    # the clues are all drawn, and the picture grows to hold the statement
    assert len(_elements(picture, "clue")) == grid.clue_count
    root = ET.fromstring(picture)
    _, _, w, h = map(float, root.get("viewBox", "").split())
    assert h > w


def test_classic_svg_has_no_rule_marks() -> None:
    picture = svg(puzzle_of("classic", Shape(3, 3)))
    for role in ("diagonal", "window", "group", "rules"):
        assert not _elements(picture, role)
    assert 'viewBox="0 0 368 368"' in picture and _thick_segments(picture) == 4


def test_svg_statement_of_neighbour_rules() -> None:
    picture = svg(Grid("." * 81, rules="antiknight+antiking+nc"))
    lines = [t.text or "" for t in _elements(picture, "rules")]
    assert lines[0] == "Anti-knight: cells a knight's move apart differ."
    assert lines[1] == "Anti-king: diagonally touching cells differ."
    assert " ".join(lines[2:]).startswith("Non-consecutive: side-touching cells")


# PDF -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def rule_book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    items = [
        (unique_under(r, 7), r.split(":")[0])
        for r in ("x", "windoku", "dg", "jigsaw:" + JIGSAW9, "antiknight+nc", "x+windoku")
    ]
    path = tmp_path_factory.mktemp("book") / "rules.pdf"
    book(items, path, per_page=4)
    return path


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="pdftotext (poppler) missing")
def test_pdf_states_the_rules(rule_book: Path) -> None:
    text = subprocess.run(
        ["pdftotext", "-layout", str(rule_book), "-"], capture_output=True, text=True, check=True
    ).stdout
    flat = " ".join(text.split())
    for rules in ("x", "windoku", "dg", "jigsaw:" + JIGSAW9, "antiknight+nc"):
        for sentence in rules_statement(Rules(rules), 9).split(". "):
            words = sentence.rstrip(".").split()
            # the sentence's words appear in order (the statement is wrapped to the slot)
            assert " ".join(words[:4]) in flat, (rules, words[:4])
    assert flat.count("Sudoku-X: each diagonal also holds 1-9") == 2  # x, and x+windoku


def test_pdf_of_classic_puzzles_has_no_statement() -> None:
    out = io.BytesIO()
    book([(unique_under("classic", 3), None)], out, solutions=False)
    assert b"Sudoku-X" not in out.getvalue()
