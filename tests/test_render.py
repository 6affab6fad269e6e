"""Rendering: SVG pictures (well formed, complete, deterministic, every shape) and PDF books
(pages, labels, clues in order, fonts, memory, a look at the rendered page), and their CLI."""

from __future__ import annotations

import doctest
import io
import json
import math
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pypdf
import pytest

import sudokit
import sudokit.render.pdf as pdf_module
import sudokit.render.svg as svg_module
from sudokit import Generated, Grid, Shape, random_grid
from sudokit.cli import main
from sudokit.logic import Candidates, Link, Step, next_step
from sudokit.output import Label, label_of, parse_label, read_labelled
from sudokit.render.pdf import book, font_files
from sudokit.render.svg import svg, symbols_for

from grid_strategies import SHAPES

NS = "{http://www.w3.org/2000/svg}"
PUZZLE = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


def sample(shape: Shape, seed: int = 1) -> Grid:
    """A conflict-free grid of ``shape`` with 60% of its cells filled (not always unique; with
    fewer clues, the exact engine can take minutes to solve some big ones)."""
    full = random_grid(shape, seed=seed)
    cells = bytes(d if (c * 7 + seed) % 5 < 3 else 0 for c, d in enumerate(full.cells))
    return Grid.from_cells(cells, shape)


def unique_sample(shape: Shape, seed: int = 1) -> Grid:
    """Like :func:`sample`, with clues of the full grid put back until it has one solution
    (a book prints only such puzzles)."""
    full = random_grid(shape, seed=seed)
    for keep in (3, 4, 5):  # of every 5 cells
        cells = bytes(d if (c * 7 + seed) % 5 < keep else 0 for c, d in enumerate(full.cells))
        grid = Grid.from_cells(cells, shape)
        if sudokit.is_unique(grid):
            return grid
    return full


def parse(text: str) -> ET.Element:
    return ET.fromstring(text)


def by_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [e for e in root.iter() if name in (e.get("class") or "").split()]


# SVG -------------------------------------------------------------------------------------------


def test_svg_doctests() -> None:
    assert doctest.testmod(svg_module).failed == 0


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_svg_every_shape(shape: Shape) -> None:
    grid = sample(shape)
    root = parse(svg(grid))
    assert root.tag == f"{NS}svg"
    n = shape.n
    side = n * svg_module.CELL + 2 * svg_module.MARGIN
    assert root.get("viewBox") == f"0 0 {side} {side}"
    symbols = symbols_for(n)
    clues = by_class(root, "clue")
    assert [t.text for t in clues] == [symbols[d - 1] for d in grid.cells if d]
    assert all(t.get("font-weight") == "bold" for t in clues)
    # Thick lines between boxes: one segment per inner box boundary, both ways.
    (thick,) = by_class(root, "thick")
    segments = (thick.get("d") or "").count("M")
    assert segments == (n // shape.box_cols - 1) + (n // shape.box_rows - 1)
    (thin,) = by_class(root, "thin")
    assert (thin.get("d") or "").count("M") == 2 * (n - 1) - segments
    assert len(by_class(root, "border")) == 1


def test_svg_symbols_and_alphabet() -> None:
    grid = sample(Shape(4, 4))
    texts = {t.text for t in by_class(parse(svg(grid)), "clue")}
    assert texts <= set("123456789ABCDEFG") and texts & set("ABCDEFG")
    zero = {t.text for t in by_class(parse(svg(grid, alphabet="0123456789ABCDEF")), "clue")}
    assert zero <= set("0123456789ABCDEF") and "G" not in zero
    with pytest.raises(ValueError):
        svg(grid, alphabet="0123")


def test_svg_escapes_symbols() -> None:
    grid = Grid("1234341221434321")
    root = parse(svg(grid, alphabet="<&>'"))  # still well formed
    assert sorted({t.text or "" for t in by_class(root, "clue")}) == sorted("<&>'")


def test_svg_player_digits() -> None:
    grid = Grid(PUZZLE)
    player = grid.with_digit(2, 4).with_digit(3, 6)
    root = parse(svg(grid, player=player))
    own = by_class(root, "player")
    assert [t.text for t in own] == ["4", "6"]
    assert own[0].get("fill") != by_class(root, "clue")[0].get("fill")
    assert own[0].get("font-weight") != "bold"
    mapped = parse(svg(grid, player={3: 6, 2: 4, 0: 9}))  # a clue's cell keeps the clue
    assert [t.text for t in by_class(mapped, "player")] == ["4", "6"]
    with pytest.raises(ValueError):
        svg(grid, player={81: 1})
    with pytest.raises(ValueError):
        svg(grid, player=Grid("." * 16))


def test_svg_pencil_marks_from_masks_and_state() -> None:
    grid = Grid(PUZZLE)
    state = Candidates.from_grid(grid)
    root = parse(svg(grid, candidates=state.masks()))
    marks = by_class(root, "candidate")
    assert len(marks) == sum(m.bit_count() for m in state.cand)
    # Each mark lies inside its cell, digit d at place d in a 3x3 mini-grid.
    cell, first = next((c, m) for c, m in enumerate(state.cand) if m)
    x0 = svg_module.MARGIN + (cell % 9) * svg_module.CELL
    d = (first & -first).bit_length()
    assert marks[0].text == str(d)
    x = float(marks[0].get("x") or 0)
    assert x0 < x < x0 + svg_module.CELL
    assert svg(grid, candidates=state) == svg(grid, candidates=state.masks())
    # A state a few steps on: the values it placed show as the player's digits.
    step = next_step(state)
    assert step is not None
    after = state.copy()
    for c, digit in step.placements:
        after.place(c, digit)
    placed = by_class(parse(svg(grid, candidates=after)), "player")
    assert [t.text for t in placed] == [str(digit) for _, digit in step.placements]
    with pytest.raises(ValueError):
        svg(grid, candidates=[1, 2, 3])


def _chain_step() -> tuple[Grid, Candidates, Step]:
    grid = Grid(PUZZLE)
    state = Candidates.from_grid(grid)
    shape = grid.shape
    # Cells and candidates with 1 and 2 (not a real deduction: the drawing is what is tested).
    a, b, c = [cell for cell, m in enumerate(state.cand) if m & 0b11 == 0b11][:3]
    step = Step(
        shape=shape,
        technique="x-chain",
        rating=6.6,
        placements=((c, 2),),
        eliminations=((b, 1),),
        cells=(a, b),
        units=(shape.units_of[a][0],),
        digits=(1,),
        links=(Link(a, 1, b, 2, True), Link(b, 2, c, 2, False)),
    )
    return grid, state, step


def test_svg_step_highlights() -> None:
    grid, state, step = _chain_step()
    root = parse(svg(grid, candidates=state, step=step))
    assert len(by_class(root, "unit")) == 1
    assert len(by_class(root, "pattern")) == 2
    assert len(by_class(root, "placement")) == 1
    assert [t.text for t in by_class(root, "placement-digit")] == ["2"]
    (gone,) = by_class(root, "elimination")
    assert gone.text == "1" and gone.get("fill") == svg_module.COLORS["elimination"]
    assert len(by_class(root, "strike")) == 1
    assert len(by_class(root, "pattern-digit")) >= 2  # the pattern's candidates are circled
    strong, weak = by_class(root, "strong"), by_class(root, "weak")
    assert len(strong) == 1 and len(weak) == 1
    assert strong[0].get("stroke-dasharray") is None and weak[0].get("stroke-dasharray")
    assert strong[0].get("marker-end") == "url(#sudokit-arrow)"
    assert root.find(f"{NS}defs/{NS}marker") is not None
    # Without candidates the step still shows what it removes and what it links.
    bare = parse(svg(grid, step=step))
    assert len(by_class(bare, "elimination")) == 1 and len(by_class(bare, "link")) == 2
    with pytest.raises(ValueError):
        svg(Grid("." * 16), step=step)


def test_svg_real_step() -> None:
    grid = Grid(PUZZLE)
    state = Candidates.from_grid(grid)
    step = next_step(state)
    assert step is not None
    root = parse(svg(grid, candidates=state, step=step))
    cell, digit = step.placements[0]
    assert [t.text for t in by_class(root, "placement-digit")] == [str(digit)]


def test_svg_deterministic_and_sized() -> None:
    grid, state, step = _chain_step()
    one = svg(grid, candidates=state, step=step, size=300)
    two = svg(Grid(PUZZLE), candidates=Candidates.from_grid(grid), step=step, size=300)
    assert one == two
    root = parse(one)
    assert root.get("width") == "300" and root.get("height") == "300"
    assert "viewBox" in root.attrib


def test_repr_svg() -> None:
    grid = Grid(PUZZLE)
    assert grid._repr_svg_() == svg(grid)


def test_core_imports_no_reportlab() -> None:
    code = (
        "import sys, sudokit, sudokit.cli, sudokit.render, sudokit.render.pdf; "
        "sudokit.Grid('1.3...12....4..3')._repr_svg_(); "
        "assert 'reportlab' not in sys.modules, 'reportlab imported'"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr


# PDF -------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def generated() -> list[Generated]:
    return list(sudokit.generate_many(13, seed=2024, with_rating=True))


def read(data: bytes) -> pypdf.PdfReader:
    return pypdf.PdfReader(io.BytesIO(data))


def make(items: object, **options: object) -> bytes:
    out = io.BytesIO()
    book(items, out, **options)  # type: ignore[arg-type]
    return out.getvalue()


def compact(text: str) -> str:
    return "".join(text.split())


def test_pdf_doctests() -> None:
    assert doctest.testmod(pdf_module).failed == 0


@pytest.mark.parametrize("solutions", [True, False])
@pytest.mark.parametrize("per_page", [1, 2, 4, 6])
def test_page_counts(generated: list[Generated], per_page: int, solutions: bool) -> None:
    out = io.BytesIO()
    summary = book(generated, out, per_page=per_page, solutions=solutions)
    pages = math.ceil(13 / per_page) + (2 if solutions else 0)  # 12 solutions a page
    assert len(read(out.getvalue()).pages) == pages == summary.pages
    assert summary.puzzles == 13
    assert summary.puzzle_pages == math.ceil(13 / per_page)


def test_title_and_labels(generated: list[Generated]) -> None:
    data = make(generated, per_page=4, title="Sudoku Weekly")
    reader = read(data)
    assert reader.metadata is not None and reader.metadata.title == "Sudoku Weekly"
    for i, g in enumerate(generated):
        text = reader.pages[i // 4].extract_text()
        assert text.startswith("Sudoku Weekly")
        label = label_of(g)
        assert label.level is not None and label.er is not None
        expected = f"{label.level.capitalize()} · ER {label.er:.1f} · seed 2024 · index {i}"
        assert expected == label.text()
        assert f"{i + 1}\n{expected}" in text
    back = reader.pages[-1].extract_text()
    assert "Solutions" in back and "seed 2024" not in back  # solutions drop seed and index
    assert "Sudoku Weekly" not in back


def test_clues_in_order_and_solutions(generated: list[Generated]) -> None:
    reader = read(make(generated, per_page=6))
    puzzle_pages = math.ceil(13 / 6)
    for i, g in enumerate(generated):
        page = compact(reader.pages[i // 6].extract_text())
        assert compact(g.puzzle.to_line().replace(".", "")) in page
    back = compact("".join(p.extract_text() for p in reader.pages[puzzle_pages:]))
    for g in generated:
        assert g.solution.to_line() in back


def test_grid_label_items_and_solving() -> None:
    grid = Grid(PUZZLE)
    items = [(grid, Label(level="easy", id="wiki")), (grid, "second"), (grid, None)]
    reader = read(make(items, per_page=4))
    text = reader.pages[0].extract_text()
    assert "Easy · wiki" in text and "second" in text
    solution = sudokit.solve(grid)
    assert solution is not None
    assert solution.to_line() in compact(reader.pages[1].extract_text())
    unsolvable = Grid("12........3...4.")  # r1c3 has no candidate: never printed
    with pytest.raises(sudokit.NotUniqueError, match="puzzle 2: no solution"):
        make([(grid, None), (unsolvable, None)])
    with pytest.raises(sudokit.NotUniqueError, match="puzzle 1: more than one solution"):
        make([(Grid("." * 81), None)])
    with pytest.raises(ValueError, match="no puzzle to print"):
        make([])
    with pytest.raises(TypeError):
        make([("not a grid", None)])


def test_labels_option(generated: list[Generated]) -> None:
    text = read(make(generated[:2], labels=("number", "level"))).pages[0].extract_text()
    assert "seed" not in text and "ER" not in text and "1\n" in text
    text = read(make(generated[:2], labels=())).pages[0].extract_text()
    level = label_of(generated[0]).level
    assert level is not None and level.capitalize() not in text and "seed" not in text
    assert compact(text).startswith(compact(generated[0].puzzle.to_line().replace(".", "")))
    with pytest.raises(ValueError, match="label field"):
        make(generated[:1], labels=("colour",))


def test_options_checked(generated: list[Generated]) -> None:
    with pytest.raises(ValueError, match="per_page"):
        make(generated[:1], per_page=3)
    with pytest.raises(ValueError, match="page size"):
        make(generated[:1], page_size="A5")


@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_pdf_every_shape(shape: Shape) -> None:
    grids = [unique_sample(shape, seed) for seed in (1, 2)]
    reader = read(make([(g, f"shape {shape}") for g in grids], per_page=4, page_size="Letter"))
    symbols = symbols_for(shape.n)
    text = compact("".join(p.extract_text() for p in reader.pages))
    for g in grids:
        assert "".join(symbols[d - 1] for d in g.cells if d) in text


def test_big_grids_get_fewer_per_page() -> None:
    for shape, per_page in [(Shape(4, 4), 2), (Shape(5, 5), 1), (Shape(6, 6), 1)]:
        out = io.BytesIO()
        summary = book([(unique_sample(shape, s), None) for s in (1, 2)], out, per_page=6)
        assert summary.puzzle_pages == 2 // per_page
        if per_page < 6:  # the book says it placed fewer than asked
            assert summary.notes and f"{per_page} a page, not 6" in summary.notes[0]
    for w, h in pdf_module.PAGE_SIZES.values():
        area = pdf_module._Area(42.0, 64.0, w - 84.0, h - 130.0)  # a page with a title
        for side in (4, 5):
            layout = pdf_module._puzzle_layout(Shape(side, side), area, 6, False)
            assert layout.cell >= pdf_module.MIN_CELL


def test_explain_and_pencil_marks(generated: list[Generated]) -> None:
    plain = read(make(generated[:2], per_page=2))
    marked = read(make(generated[:2], per_page=2, pencil_marks=True))
    assert len(marked.pages[0].extract_text()) > 3 * len(plain.pages[0].extract_text())
    reader = read(make(generated[:2], per_page=2, explain=True))
    back = "\n".join(p.extract_text() for p in reader.pages[1:])
    path = sudokit.logic.solve_path(generated[0].puzzle)
    first = f"1. [{path.steps[0].rating:.1f}] {path.steps[0].text}"
    assert compact(first) in compact(back)
    assert ("Solved." if path.solved else "Stuck after") in back
    assert generated[0].solution.to_line() in compact(back)
    only = read(make(generated[:1], solutions=False, explain=True))
    text = "\n".join(p.extract_text() for p in only.pages[1:])
    assert "How to solve them" in text and generated[0].solution.to_line() not in compact(text)


def test_pdf_deterministic_and_fonts_embedded(
    generated: list[Generated], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # the same bytes: a fixed date
    data = make(generated[:3])
    assert data == make(generated[:3])
    path = tmp_path / "b.pdf"
    book(generated[:3], path)
    assert path.read_bytes() == data
    book(generated[:3], str(path))
    assert path.read_bytes() == data
    reader = read(data)
    for page in reader.pages:
        resources: Any = page["/Resources"]  # pypdf's objects are untyped dictionaries
        for ref in resources["/Font"].values():
            font = ref.get_object()
            assert font["/Subtype"] == "/TrueType", font["/BaseFont"]
            assert "/FontFile2" in font["/FontDescriptor"].get_object()


def test_font_files_fall_back_to_vera(tmp_path: Path) -> None:
    regular, bold = font_files(tmp_path)
    assert regular.name == "Vera.ttf" and bold.name == "VeraBd.ttf"
    assert regular.is_file() and bold.is_file()


def test_500_puzzle_book_memory(tmp_path: Path) -> None:
    """500 puzzles streamed from a generator: the process grows by little (reportlab keeps the
    pages' drawing until it saves; sudokit keeps a few hundred bytes a puzzle)."""
    code = """
import resource, sys
import sudokit
from sudokit.render.pdf import book
base = list(sudokit.generate_many(50, seed=1))
def stream():
    for i in range(500):
        yield base[i % 50]
book(base[:4], sys.argv[1])  # load fonts and modules first
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
summary = book(stream(), sys.argv[1], per_page=4)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(summary.puzzles, summary.pages, after - before)
"""
    path = tmp_path / "big.pdf"
    r = subprocess.run(
        [sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=False
    )
    assert r.returncode == 0, r.stderr
    puzzles, pages, growth_kib = map(int, r.stdout.split())
    assert puzzles == 500 and pages == 125 + math.ceil(500 / 12)
    assert growth_kib < 64 * 1024, f"the book grew the process by {growth_kib} KiB"
    assert len(pypdf.PdfReader(path).pages) == pages


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) absent")
def test_rendered_page_looks_like_a_puzzle_page(generated: list[Generated], tmp_path: Path) -> None:
    image_module = pytest.importorskip("PIL.Image")
    path = tmp_path / "book.pdf"
    book(generated, path, per_page=4, title="Look")
    subprocess.run(
        ["pdftoppm", "-r", "72", "-f", "1", "-l", "1", "-gray", "-png", "-singlefile"]
        + [str(path), str(tmp_path / "page")],
        check=True,
    )
    image = image_module.open(tmp_path / "page.png").convert("L")
    w, h = image.size
    assert abs(w - 595) <= 1 and abs(h - 842) <= 1  # A4 at 72 dpi
    # One byte a pixel, 1 where dark: counts are then bytes.count, row by row.
    dark = image.point(lambda v: 1 if v < 100 else 0).tobytes()
    across = image.transpose(image_module.Transpose.TRANSPOSE).point(lambda v: 1 if v < 100 else 0)
    down = across.tobytes()
    rows = [dark[y * w : (y + 1) * w].count(1) for y in range(h)]
    cols = [down[x * h : (x + 1) * h].count(1) for x in range(w)]
    assert 0.01 < sum(rows) / (w * h) < 0.3  # not blank, not black
    # Grid lines: rows and columns of the page crossed by long dark runs (two grids across).
    assert sum(r > 0.6 * w for r in rows) >= 8
    assert sum(c > 0.5 * h for c in cols) >= 8
    # Centred: as much white on the left of the ink as on the right.
    ink = [x for x, c in enumerate(cols) if c]
    assert abs(ink[0] - (w - 1 - ink[-1])) <= 3


# Labels from records ---------------------------------------------------------------------------


def test_parse_label_forms() -> None:
    line = "1.3...12....4..3 # index=4 seed=99 clues=6 rating=ED=7.1/1.2/1.2 level=diabolical"
    assert parse_label(line) == Label(level="diabolical", er=7.1, seed=99, index=4)
    assert parse_label(f"{PUZZLE} ED=2.3/1.2/1.2") == Label(level="hard", er=2.3)
    obj = {"puzzle": PUZZLE, "index": 3, "seed": 8, "er": 1.2, "level": "easy"}
    assert parse_label(json.dumps(obj)) == Label(level="easy", er=1.2, seed=8, index=3)
    assert parse_label("{not json") == Label()
    assert parse_label("# seed=x index=") == Label()


@pytest.mark.parametrize(
    "note",
    [
        "# index=4 seed=99 minimal=yes rating=ED=7.1/1.2/1.2 level=diabolical",
        "# index=4-5 seed=12-3 rating=ED=2.0/1.2/1.2",  # values the old label regex cut short
        "# rating=ED=1.0/1.0/1.0 then=ED=2.3/1.5/1.5",  # the last rating counts, for both
        "# orbit_minimal=yes xseed=5 er=9.9",  # words inside others are not facts
        "ED=3.4/1.2/1.2",
        "",
    ],
)
def test_labels_and_the_banks_stated_facts_read_one_grammar(note: str) -> None:
    """parse_label and the bank's stated facts read a record's text the same way (one
    grammar, output.stated_facts): the seed, index and ER they both read agree."""
    from sudokit.bank._stated import stated_of
    from sudokit.formats import read_puzzles

    [record] = read_puzzles([f"{PUZZLE} {note}".strip()])
    label, stated = parse_label(record.note or record.text), stated_of(record)
    assert (label.seed, label.index) == (stated.seed, stated.index)
    if stated.er is not None:
        assert label.er == stated.er


def test_read_labelled_every_record_format(generated: list[Generated]) -> None:
    from sudokit.output import FOREIGN_FORMATS, RECORD_FORMATS, csv_header, format_record

    for fmt in RECORD_FORMATS:
        text = csv_header(with_solution=True) if fmt == "csv" else ""
        text += "".join(format_record(g, fmt, with_solution=True) for g in generated[:3])
        pairs = list(read_labelled(text, source=fmt))
        good = [(r, label) for r, label in pairs if r.grid is not None]
        assert [r.grid for r, _ in good] == [g.puzzle for g in generated[:3]], fmt
        # csv rows, and the objects and links of other tools, state no key=value facts
        if fmt != "csv" and fmt not in FOREIGN_FORMATS:
            assert [label for _, label in good] == [label_of(g) for g in generated[:3]], fmt


# CLI -------------------------------------------------------------------------------------------


def _write_records(path: Path, generated: list[Generated], fmt: str = "line") -> None:
    from sudokit.output import format_record

    path.write_text("".join(format_record(g, fmt, with_solution=True) for g in generated))


def test_cli_pdf(
    generated: list[Generated], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "puzzles.txt"
    _write_records(src, generated[:5], "pretty")
    out = tmp_path / "book.pdf"
    args = ["pdf", str(src), "-o", str(out), "--per-page", "2", "--title", "From the CLI"]
    assert main(args) == 0
    assert "5 puzzles on 4 pages" in capsys.readouterr().err
    reader = pypdf.PdfReader(out)
    assert len(reader.pages) == 4
    assert reader.metadata is not None and reader.metadata.title == "From the CLI"
    assert "seed 2024 · index 1" in reader.pages[0].extract_text()
    options = ["--no-solutions", "--page-size", "Letter", "--pencil-marks", "--explain"]
    assert main(["pdf", str(src), "-o", str(out), *options]) == 0
    assert pypdf.PdfReader(out).pages[0].mediabox.width == 612


def test_cli_pdf_reports_bad_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "mixed.txt"
    src.write_text(f"not a puzzle\n{PUZZLE}\n{'11' + PUZZLE[2:]}\n")
    out = tmp_path / "book.pdf"
    assert main(["pdf", str(src), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert "line 1" in err and "line 3" in err and "1 puzzle on 2 pages" in err
    assert len(pypdf.PdfReader(out).pages) == 2
    assert main(["pdf", str(tmp_path / "absent.txt"), "-o", str(out)]) == 1
    assert main(["pdf", str(src), "-o", str(tmp_path / "no" / "dir.pdf")]) == 1
    assert "cannot write" in capsys.readouterr().err


def test_cli_generate_pdf(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "gen.pdf"
    assert main(["generate", "-n", "3", "--seed", "5", "--rate", "-j", "1", "--pdf", str(out)]) == 0
    captured = capsys.readouterr()
    assert captured.out == ""  # the book is the output
    reader = pypdf.PdfReader(out)
    text = reader.pages[0].extract_text()
    expected = [sudokit.generate(seed=5, index=i, with_rating=True) for i in range(3)]
    for i, g in enumerate(expected):
        assert label_of(g).text() in text
        assert compact(g.puzzle.to_line().replace(".", "")) in compact(text), i
    records = tmp_path / "gen.txt"
    args = ["generate", "-n", "2", "--seed", "5", "-j", "1", "--pdf", str(out), "-o", str(records)]
    assert main(args) == 0
    lines = records.read_text().splitlines()
    assert lines[0].startswith("# sudokit generate ") and len(lines[1:]) == 2
    assert main([*args, "--resume"]) == 2


def test_a_book_is_dated_now_or_at_source_date_epoch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The creation date is the real one (reportlab's invariant mode pinned 2000-01-01), or
    SOURCE_DATE_EPOCH's, which also makes the bytes the same from one run to the next."""
    import datetime

    puzzles = [(random_grid(seed=1).without(0), None)]
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    book(puzzles, tmp_path / "now.pdf")
    info = pypdf.PdfReader(tmp_path / "now.pdf").metadata
    made = info.creation_date if info is not None else None
    assert made is not None
    assert abs(made.timestamp() - datetime.datetime.now().timestamp()) < 600
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    book(puzzles, tmp_path / "a.pdf")
    book(puzzles, tmp_path / "b.pdf")
    info = pypdf.PdfReader(tmp_path / "a.pdf").metadata
    made = info.creation_date if info is not None else None
    assert made is not None and made.timestamp() == 1700000000
    assert (tmp_path / "a.pdf").read_bytes() == (tmp_path / "b.pdf").read_bytes()


def test_cli_generate_pdf_is_the_same_whatever_jobs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # the same bytes: a fixed date
    args = ["generate", "-n", "40", "--seed", "6", "--rate", "--with-solution"]
    for jobs in ("1", "2"):
        pdf, records = tmp_path / f"{jobs}.pdf", tmp_path / f"{jobs}.txt"
        assert main([*args, "-j", jobs, "--pdf", str(pdf), "-o", str(records)]) == 0
    assert (tmp_path / "1.pdf").read_bytes() == (tmp_path / "2.pdf").read_bytes()
    assert (tmp_path / "1.txt").read_bytes() == (tmp_path / "2.txt").read_bytes()
    assert len((tmp_path / "2.txt").read_text().splitlines()) == 1 + 40  # options, records


def test_cli_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["svg", PUZZLE]) == 0
    root = parse(capsys.readouterr().out)
    assert len(by_class(root, "clue")) == Grid(PUZZLE).clue_count
    assert main(["svg", PUZZLE, "--step", "--size", "360"]) == 0
    root = parse(capsys.readouterr().out)
    assert (
        root.get("width") == "360" and by_class(root, "placement") and by_class(root, "candidate")
    )
    out = tmp_path / "p.svg"
    assert main(["svg", PUZZLE, "--candidates", "-o", str(out)]) == 0
    assert by_class(parse(out.read_text()), "candidate")
    assert main(["svg", "garbage"]) == 1
    assert "cannot read garbage: No such file" in capsys.readouterr().err


def _stream(items: list[Generated], count: int) -> Iterator[Generated]:
    for i in range(count):
        yield items[i % len(items)]


def test_book_reads_a_generator_once(generated: list[Generated]) -> None:
    seen = []

    def items() -> Iterator[Generated]:
        for g in _stream(generated, 30):
            seen.append(g.index)
            yield g

    out = io.BytesIO()
    assert book(items(), out, per_page=6).puzzles == 30 and len(seen) == 30
