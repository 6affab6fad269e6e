"""Puzzle books as PDF, drawn with reportlab.

Terms:

- A **book** is the puzzle pages, then (optionally) the solutions at the back, smaller and
  several to a page, each followed, with ``explain=True``, by its numbered solve path.
- A **slot** is the place of one grid on a page: pages are ``cols x rows`` slots
  (:data:`PER_PAGE`). ``per_page`` is an upper bound: a big grid (16x16, 25x25) gets fewer slots
  a page, as many as keep its cells at least :data:`MIN_CELL` points wide, so it stays legible.
- A **label** names a puzzle above its grid: the puzzle's number in the book, then what is known
  of it: level, ER (Sudoku Explainer's rating), the seed and index that make it again, or an id.

Only :func:`book` needs reportlab, and it imports it when called, so this module (labels, the
record reader) imports without it. The book is written as it is drawn: each page's drawing is
handed to reportlab when the page ends, and apart from that only what the solutions at the back
need (each puzzle's number, label, grid and solution) is kept, a few hundred bytes a puzzle.
Text is set in DejaVu Sans (``fonts-dejavu-core``) when installed, else in Bitstream Vera, which
ships with reportlab; either is embedded (subset), so the book prints the same everywhere. The
grid lines of each grid size are one PDF form, drawn once and reused on every page.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING

from .._grid import Grid
from .._shape import Shape
from ..formats import Record, read_puzzles
from ..generator import Generated
from .svg import symbols_for

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

__all__ = [
    "LABEL_FIELDS",
    "MIN_CELL",
    "PAGE_SIZES",
    "PER_PAGE",
    "BookSummary",
    "Label",
    "book",
    "font_files",
    "label_of",
    "parse_label",
    "read_labelled",
]

#: Page sizes in points (1/72 inch).
PAGE_SIZES = {"A4": (595.2756, 841.8898), "Letter": (612.0, 792.0)}
#: Slots (columns, rows) of a puzzle page, by puzzles per page.
PER_PAGE = {1: (1, 1), 2: (1, 2), 4: (2, 2), 6: (2, 3)}
#: What a label may show, in this order.
LABEL_FIELDS = ("number", "level", "er", "seed", "id")
#: The narrowest cell of a puzzle grid, in points (16 pt is 5.6 mm).
MIN_CELL = 16.0
#: The narrowest cell of a solution grid, in points.
MIN_SOLUTION_CELL = 9.5
#: The widest cell of a puzzle grid (a lone 9x9 on a page is then 15 cm wide).
MAX_CELL = 46.0
_SOLUTION_LAYOUTS = ((3, 4), (3, 3), (2, 3), (2, 2), (1, 2), (1, 1))

_MARGIN = 42.0
_PUZZLE_LABEL = 12.0  # font sizes of the labels
_SOLUTION_LABEL = 9.0
_FOOTER = 22.0
_GAP = 24.0
_GREY = (0.33, 0.33, 0.33)
_PENCIL = (0.38, 0.38, 0.38)

_DEJAVU = Path("/usr/share/fonts/truetype/dejavu")


# Labels ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Label:
    """What is known of a puzzle, for the line above its grid (the book adds its number).

    >>> Label(level="hard", er=2.3, seed=7, index=3).text()
    'Hard · ER 2.3 · seed 7 · index 3'
    >>> Label(id="top1465 #12").text(("number", "id"))
    'top1465 #12'
    """

    level: str | None = None
    er: float | None = None
    seed: int | None = None
    index: int | None = None
    id: str | None = None

    def text(self, fields: Collection[str] = LABEL_FIELDS) -> str:
        """The label's facts named in ``fields``, joined by middle dots (number not included)."""
        parts = []
        if "level" in fields and self.level:
            parts.append(self.level.capitalize())
        if "er" in fields and self.er is not None:
            parts.append(f"ER {self.er:.1f}")
        if "seed" in fields and self.seed is not None:
            parts.append(f"seed {self.seed}")
        if "seed" in fields and self.index is not None:
            parts.append(f"index {self.index}")
        if "id" in fields and self.id:
            parts.append(self.id)
        return " · ".join(parts)


def label_of(g: Generated) -> Label:
    """The label of a generated puzzle: its level and ER when rated, its seed and index."""
    r = g.rating
    return Label(
        level=r.level.name.lower() if r is not None else None,
        er=r.er if r is not None else None,
        seed=g.seed,
        index=g.index,
    )


_FACT = re.compile(r"\b(index|seed|level|er)=([\w.]+)")
_SE_RATING = re.compile(r"\bED=(\d+(?:\.\d+)?)/")


def parse_label(text: str) -> Label:
    """The label a record's text states: the ``# index=… seed=… rating=ED=… level=…`` comment
    of ``sudokit generate``, a JSON record's fields, or an SE rating ``ED=ER/EP/ED``.

    >>> parse_label("1.3...12....4..3 # index=4 seed=99 shape=2x2 rating=ED=1.2/1.2/1.2 level=easy")
    Label(level='easy', er=1.2, seed=99, index=4, id=None)
    >>> parse_label('{"puzzle": "...", "er": 7.1, "index": 2}')
    Label(level='diabolical', er=7.1, seed=None, index=2, id=None)
    >>> parse_label("1.3...12....4..3")
    Label(level=None, er=None, seed=None, index=None, id=None)
    """
    facts: dict[str, object] = {}
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            obj = json.loads(stripped)
        except ValueError:
            obj = None
        if isinstance(obj, dict):
            facts = {k: obj[k] for k in ("index", "seed", "level", "er") if k in obj}
    else:
        facts = {k: v for k, v in _FACT.findall(text)}
        m = _SE_RATING.search(text)
        if m:
            facts["er"] = m.group(1)

    def number(key: str, kind: Callable[[str], float]) -> float | None:
        value = facts.get(key)
        try:
            return kind(str(value)) if value is not None else None
        except ValueError:
            return None

    er = number("er", float)
    level = facts.get("level")
    if not isinstance(level, str) or not level:
        level = None
        if er is not None:
            from ..rating import Level  # the logic engine, only when a rating is read

            level = Level.of(er).name.lower()
    seed, index = number("seed", int), number("index", int)
    return Label(
        level=level,
        er=er,
        seed=int(seed) if seed is not None else None,
        index=int(index) if index is not None else None,
    )


class _Comments:
    """The lines of a stream, remembering the comment lines just read (for the labels of
    pretty grids, which ``sudokit generate --format grid`` states on the line above)."""

    def __init__(self, lines: Iterable[str]) -> None:
        self._lines = lines
        self.seen: dict[int, str] = {}

    def __iter__(self) -> Iterator[str]:
        for number, line in enumerate(self._lines, 1):
            if line.lstrip().startswith("#"):
                self.seen[number] = line.strip()
            yield line

    def before(self, line: int) -> str | None:
        """The comment on the line above ``line``; forget older ones."""
        text = self.seen.get(line - 1)
        for k in [k for k in self.seen if k < line]:
            del self.seen[k]
        return text


def read_labelled(
    lines: Iterable[str],
    *,
    shape: Shape | None = None,
    alphabet: str | None = None,
    source: str = "<stdin>",
) -> Iterator[tuple[Record, Label]]:
    """Read puzzles as :func:`sudokit.read_puzzles` does, each with the label its record states
    (see :func:`parse_label`). A grid under a ``# solution`` comment (``sudokit generate
    --format grid --with-solution``) is the previous puzzle's solution and is skipped.

    >>> text = "# index=0 seed=5\\n1 . | 3 .\\n. . | 1 2\\n----+----\\n. . | . .\\n4 . | . 3\\n"
    >>> [(r.grid.to_line(), label.seed) for r, label in read_labelled(text)]
    [('1.3...12....4..3', 5)]
    """
    if isinstance(lines, str):
        lines = lines.splitlines(keepends=True)
    stream = _Comments(lines)
    for rec in read_puzzles(stream, shape=shape, alphabet=alphabet, source=source):
        above = stream.before(rec.line)
        if rec.fmt == "pretty":
            if above is not None and above.lstrip("# ").lower().startswith("solution"):
                continue
            yield rec, parse_label(above or "")
        else:
            yield rec, parse_label(rec.text)


# The book --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BookSummary:
    """What :func:`book` wrote: puzzles, and pages in all and by section."""

    puzzles: int
    pages: int
    puzzle_pages: int
    solution_pages: int


@dataclass(frozen=True, slots=True)
class _Entry:
    """One puzzle as the back of the book needs it."""

    number: int
    label: Label
    puzzle: Grid
    solution: Grid | None


def font_files(dejavu: Path = _DEJAVU) -> tuple[Path, Path]:
    """The regular and bold TrueType files the book is set in: DejaVu Sans where Debian's
    ``fonts-dejavu-core`` put it, else Bitstream Vera from reportlab's own fonts."""
    if (dejavu / "DejaVuSans.ttf").is_file() and (dejavu / "DejaVuSans-Bold.ttf").is_file():
        return dejavu / "DejaVuSans.ttf", dejavu / "DejaVuSans-Bold.ttf"
    import reportlab

    fonts = Path(reportlab.__file__).parent / "fonts"
    return fonts / "Vera.ttf", fonts / "VeraBd.ttf"


def _fonts() -> tuple[str, str]:
    """Register the book's TrueType fonts once; return (regular, bold) names."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    regular, bold = "SudokitSans", "SudokitSans-Bold"
    if regular in pdfmetrics.getRegisteredFontNames():
        return regular, bold
    files = font_files()
    pdfmetrics.registerFont(TTFont(regular, str(files[0])))
    pdfmetrics.registerFont(TTFont(bold, str(files[1])))
    return regular, bold


@dataclass(frozen=True, slots=True)
class _Area:
    """The part of a page that slots fill: left, bottom, width, height (points)."""

    x: float
    y: float
    w: float
    h: float


@dataclass(frozen=True, slots=True)
class _Layout:
    """Slots a page (cols x rows) and the cell size of the grids in them."""

    cols: int
    rows: int
    cell: float

    @property
    def slots(self) -> int:
        return self.cols * self.rows


def _label_height(size: float) -> float:
    return size * 1.6


def _cell_for(shape: Shape, area: _Area, cols: int, rows: int, label_h: float) -> float:
    """The largest cell (to a quarter point) that fits a grid and its label in each slot."""
    slot_w = area.w / cols - (_GAP if cols > 1 else 0)
    slot_h = area.h / rows - (_GAP if rows > 1 else 0) - label_h
    return math.floor(min(slot_w, slot_h) / shape.n * 4) / 4


def _puzzle_layout(shape: Shape, area: _Area, per_page: int, pencil: bool) -> _Layout:
    """The most slots, up to ``per_page``, whose cells stay legible (see the module notes)."""
    need = MIN_CELL
    if pencil:  # pencil marks need room too: about 5.5 pt a mini-cell
        need = max(need, 5.5 * max(shape.box_rows, shape.box_cols))
    options = [k for k in sorted(PER_PAGE, reverse=True) if k <= per_page]
    for k in options:
        cols, rows = PER_PAGE[k]
        cell = _cell_for(shape, area, cols, rows, _label_height(_PUZZLE_LABEL))
        if cell >= need or k == 1:
            return _Layout(cols, rows, min(cell, MAX_CELL))
    raise AssertionError("unreachable: one per page always fits")  # pragma: no cover


def _solution_layout(shape: Shape, area: _Area) -> _Layout:
    for cols, rows in _SOLUTION_LAYOUTS:
        cell = _cell_for(shape, area, cols, rows, _label_height(_SOLUTION_LABEL))
        if cell >= MIN_SOLUTION_CELL or (cols, rows) == (1, 1):
            return _Layout(cols, rows, min(cell, 20.0))
    raise AssertionError("unreachable")  # pragma: no cover


class _Book:
    """The canvas, the fonts, and where the current page is up to."""

    def __init__(
        self, canvas: Canvas, size: tuple[float, float], title: str | None, labels: Collection[str]
    ) -> None:
        self.c = canvas
        self.width, self.height = size
        self.title = title
        self.labels = labels
        self.regular, self.bold = _fonts()
        self.forms: set[str] = set()
        self.page_open = False
        self.pages = 0
        self.slots: tuple[int, int] | None = None
        self.slot = 0
        self.heading: str | None = None
        top = self.height - _MARGIN - (24.0 if title else 0.0)
        bottom = _MARGIN + _FOOTER
        self.area = _Area(_MARGIN, bottom, self.width - 2 * _MARGIN, top - bottom)
        self._widths: dict[tuple[str, str, float], float] = {}

    # Pages.

    def width_of(self, text: str, font: str, size: float) -> float:
        key = (text, font, size)
        w = self._widths.get(key)
        if w is None:
            from reportlab.pdfbase.pdfmetrics import stringWidth

            w = self._widths[key] = stringWidth(text, font, size)
        return w

    def font_size(self, symbols: tuple[str, ...], font: str, size: float, room: float) -> float:
        """``size``, or less where the widest symbol would not fit in ``room`` (two-character
        symbols of grids past 61 digits)."""
        widest = max(self.width_of(sym, font, size) for sym in symbols)
        return size if widest <= room else size * room / widest

    def start_page(self, heading: str | None) -> None:
        self.end_page()
        self.page_open = True
        self.slot = 0
        c = self.c
        if self.title:
            c.setFillColorRGB(0, 0, 0)
            c.setFont(self.bold, 15)
            c.drawCentredString(self.width / 2, self.height - _MARGIN - 8, self.title)
        if heading:
            c.setFillColorRGB(0, 0, 0)
            c.setFont(self.bold, 13)
            c.drawString(_MARGIN, self.height - _MARGIN - 10, heading)

    def end_page(self) -> None:
        if not self.page_open:
            return
        self.pages += 1
        c = self.c
        c.setFillColorRGB(*_GREY)
        c.setFont(self.regular, 9)
        c.drawCentredString(self.width / 2, _MARGIN, str(self.pages))
        c.showPage()  # the page's drawing goes to reportlab; nothing of it stays here
        self.page_open = False
        self.slots = None

    def next_slot(
        self, layout: _Layout, heading: str | None, area: _Area
    ) -> tuple[float, float, float, float]:
        """The slot for the next grid (left, bottom, width, height), on a new page when the
        page is full or has other slots."""
        slots = (layout.cols, layout.rows)  # grids of other sizes may share the page
        if not self.page_open or self.slots != slots or self.slot >= layout.slots:
            self.start_page(heading)
            self.slots = slots
        k = self.slot
        self.slot += 1
        col, row = k % layout.cols, k // layout.cols
        w, h = area.w / layout.cols, area.h / layout.rows
        return area.x + col * w, area.y + area.h - (row + 1) * h, w, h

    # Grids.

    def _form(self, shape: Shape, cell: float) -> str:
        """The name of the form holding the lines of a grid of ``shape`` and ``cell``."""
        name = f"grid{shape.box_rows}x{shape.box_cols}c{round(cell * 100)}"
        if name in self.forms:
            return name
        self.forms.add(name)
        c = self.c
        n, br, bc = shape.n, shape.box_rows, shape.box_cols
        side = n * cell
        thin = min(max(cell * 0.022, 0.3), 0.7)
        thick = min(max(cell * 0.07, 1.4), 2.4)
        edge = math.ceil(thick)  # the form's box: the grid and its border's outer half
        c.beginForm(name, -edge, -edge, math.ceil(side) + edge, math.ceil(side) + edge)
        c.setStrokeColorRGB(0, 0, 0)
        c.setLineWidth(thin)
        path = c.beginPath()
        for i in range(1, n):
            at = i * cell
            if i % bc:
                path.moveTo(at, 0)
                path.lineTo(at, side)
            if i % br:
                path.moveTo(0, at)
                path.lineTo(side, at)
        c.drawPath(path, stroke=1, fill=0)
        c.setLineWidth(thick)
        c.setLineCap(2)  # square ends meet the border cleanly
        path = c.beginPath()
        for i in range(bc, n, bc):
            path.moveTo(i * cell, 0)
            path.lineTo(i * cell, side)
        for i in range(br, n, br):
            path.moveTo(0, side - i * cell)
            path.lineTo(side, side - i * cell)
        c.drawPath(path, stroke=1, fill=0)
        c.setLineJoin(0)
        c.rect(0, 0, side, side, stroke=1, fill=0)
        c.endForm()
        return name

    def grid(
        self,
        grid: Grid,
        x: float,
        y: float,
        cell: float,
        *,
        pencil: bool,
        givens: Grid | None = None,
    ) -> None:
        """Draw ``grid`` with its lower-left corner at (x, y); with ``givens`` (a solution's
        puzzle), the digits that were not clues are drawn in the regular weight."""
        c = self.c
        shape = grid.shape
        n = shape.n
        form = self._form(shape, cell)
        c.saveState()
        c.translate(x, y)
        c.doForm(form)
        c.restoreState()
        symbols = symbols_for(n)
        top = y + n * cell
        size = self.font_size(symbols, self.bold, cell * 0.62, cell * 0.82)
        text = c.beginText()
        text.setFillColorRGB(0, 0, 0)
        font = ""
        for cell_index, digit in enumerate(grid.cells):
            if digit:
                r, col = divmod(cell_index, n)
                sym = symbols[digit - 1]
                given = givens is None or givens.cells[cell_index]
                if font != (self.bold if given else self.regular):
                    font = self.bold if given else self.regular
                    text.setFont(font, size)
                cx = x + (col + 0.5) * cell - self.width_of(sym, font, size) / 2
                text.setTextOrigin(cx, top - (r + 0.5) * cell - size * 0.36)
                text.textOut(sym)
        c.drawText(text)
        if pencil:
            self._pencil(grid, x, top, cell)

    def _pencil(self, grid: Grid, x: float, top: float, cell: float) -> None:
        from ..logic._state import Candidates

        shape = grid.shape
        n, br, bc = shape.n, shape.box_rows, shape.box_cols
        inset = cell * 0.07
        mw, mh = (cell - 2 * inset) / bc, (cell - 2 * inset) / br
        symbols = symbols_for(n)
        size = self.font_size(symbols, self.regular, min(mw, mh) * 0.78, mw * 0.9)
        text = self.c.beginText()
        text.setFont(self.regular, size)
        text.setFillColorRGB(*_PENCIL)
        for cell_index, mask in enumerate(Candidates.from_grid(grid).cand):
            r, col = divmod(cell_index, n)
            left, upper = x + col * cell + inset, top - r * cell - inset
            d = 0
            while mask >> d:
                if mask >> d & 1:
                    sym = symbols[d]
                    mr, mc = divmod(d, bc)
                    cx = left + (mc + 0.5) * mw - self.width_of(sym, self.regular, size) / 2
                    text.setTextOrigin(cx, upper - (mr + 0.5) * mh - size * 0.36)
                    text.textOut(sym)
                d += 1
        self.c.drawText(text)

    def label(
        self,
        number: int,
        label: Label,
        x: float,
        y: float,
        size: float,
        width: float,
        *,
        solution: bool = False,
    ) -> None:
        """The label line with its baseline at ``y``, from ``x`` over at most ``width``: the
        facts shrink (down to 5 pt), then lose their end, to fit. A solution's label leaves
        out the seed and index, which its puzzle's shows."""
        c = self.c
        fields = self.labels
        if solution:
            fields = [f for f in fields if f != "seed"]
        lead = str(number) if "number" in fields else ""
        end = x + width
        if lead:
            c.setFillColorRGB(0, 0, 0)
            c.setFont(self.bold, size)
            c.drawString(x, y, lead)
            x += self.width_of(lead, self.bold, size) + size * 0.6
        rest = label.text(fields)
        if not rest:
            return
        small = size * 0.8
        while small > 5.0 and self.width_of(rest, self.regular, small) > end - x:
            small = max(5.0, small - 0.5)
        while len(rest) > 1 and self.width_of(rest, self.regular, small) > end - x:
            rest = rest[:-2] + "…"
        c.setFillColorRGB(*_GREY)
        c.setFont(self.regular, small)
        c.drawString(x, y, rest)

    def place(
        self,
        entry: _Entry,
        grid: Grid | None,
        layout: _Layout,
        heading: str | None,
        area: _Area,
        label_size: float,
        pencil: bool,
        givens: Grid | None = None,
    ) -> None:
        """Put one grid and its label in the next slot, centred."""
        sx, sy, sw, sh = self.next_slot(layout, heading, area)
        side = entry.puzzle.shape.n * layout.cell
        label_h = _label_height(label_size)
        x = sx + (sw - side) / 2
        y = sy + (sh - side - label_h) / 2
        self.label(
            entry.number,
            entry.label,
            x,
            y + side + label_size * 0.55,
            label_size,
            sx + sw - x,  # to the slot's right edge
            solution=givens is not None,
        )
        if grid is None:
            self.c.setFillColorRGB(*_GREY)
            self.c.setFont(self.regular, label_size)
            self.c.drawCentredString(x + side / 2, y + side / 2, "(no solution)")
        else:
            self.grid(grid, x, y, layout.cell, pencil=pencil, givens=givens)


def _entries(
    puzzles: Iterable[Generated | tuple[Grid, Label | str | None]], solved: bool
) -> Iterator[_Entry]:
    from ..engine import solve

    for number, item in enumerate(puzzles, 1):
        if isinstance(item, Generated):
            yield _Entry(number, label_of(item), item.puzzle, item.solution)
            continue
        grid, label = item
        if not isinstance(grid, Grid):
            raise TypeError(f"expected Generated or (Grid, label) items, got {item!r:.80}")
        if label is None:
            label = Label()
        elif isinstance(label, str):
            label = Label(id=label)
        yield _Entry(number, label, grid, solve(grid) if solved else None)


def book(
    puzzles: Iterable[Generated | tuple[Grid, Label | str | None]],
    path_or_file: str | os.PathLike[str] | IO[bytes],
    *,
    per_page: int = 4,
    page_size: str = "A4",
    title: str | None = None,
    labels: Collection[str] = LABEL_FIELDS,
    solutions: bool = True,
    explain: bool = False,
    pencil_marks: bool = False,
) -> BookSummary:
    """Write a puzzle book to a path or a binary file; return what it holds.

    - ``puzzles``: :class:`~sudokit.Generated` records (labelled with their level and ER when
      rated, and their seed and index), or ``(grid, label)`` pairs where ``label`` is a
      :class:`Label`, an id string or None. Read one at a time: a generator of thousands is fine.
    - ``per_page``: 1, 2, 4 or 6 puzzles a page, at most (big grids get fewer, see the module
      notes); ``page_size``: ``"A4"`` or ``"Letter"``; ``title``: on top of each puzzle page and
      in the document's properties.
    - ``labels``: which of :data:`LABEL_FIELDS` to show above each grid (``()`` for none).
    - ``solutions``: the solutions at the back, smaller; ``explain``: each followed by its
      numbered solve path (the logic engine's steps); ``pencil_marks``: print every candidate in
      the empty cells of the puzzles.
    """
    if per_page not in PER_PAGE:
        raise ValueError(f"per_page must be one of {', '.join(map(str, PER_PAGE))}, not {per_page}")
    if page_size not in PAGE_SIZES:
        raise ValueError(f"unknown page size {page_size!r}; choose from {', '.join(PAGE_SIZES)}")
    unknown = sorted(set(labels) - set(LABEL_FIELDS))
    if unknown:
        raise ValueError(f"unknown label field {unknown[0]!r}; choose from {LABEL_FIELDS}")
    from reportlab.pdfgen.canvas import Canvas

    from .. import __version__

    size = PAGE_SIZES[page_size]
    target = (
        os.fspath(path_or_file) if isinstance(path_or_file, str | os.PathLike) else path_or_file
    )
    regular, _ = _fonts()  # also each page's initial font, so no unembedded Helvetica is named
    canvas = Canvas(
        target,
        pagesize=size,
        pageCompression=1,
        invariant=1,
        initialFontName=regular,  # type: ignore[arg-type]  # the stubs say float, wrongly
    )
    canvas.setAuthor("sudokit")
    canvas.setTitle(title or "Sudoku puzzles")
    canvas.setCreator(f"sudokit {__version__}")
    canvas.setSubject("Sudoku puzzles" + (" and solutions" if solutions else ""))
    b = _Book(canvas, size, title, labels)

    kept: list[_Entry] = []
    count = 0
    for entry in _entries(puzzles, solutions):
        count += 1
        layout = _puzzle_layout(entry.puzzle.shape, b.area, per_page, pencil_marks)
        b.place(entry, entry.puzzle, layout, None, b.area, _PUZZLE_LABEL, pencil_marks)
        if solutions or explain:
            kept.append(entry)
    b.end_page()
    puzzle_pages = b.pages

    b.title = None  # the back of the book has its own heading instead
    heading = "Solutions" if solutions else "How to solve them"
    back = _Area(b.area.x, b.area.y, b.area.w, b.height - _MARGIN - 26.0 - b.area.y)
    if explain:
        _explained(b, kept, heading, back, solutions)
    elif solutions:
        for entry in kept:
            layout = _solution_layout(entry.puzzle.shape, back)
            b.place(
                entry, entry.solution, layout, heading, back, _SOLUTION_LABEL, False, entry.puzzle
            )
    b.end_page()
    canvas.save()
    return BookSummary(count, b.pages, puzzle_pages, b.pages - puzzle_pages)


def _explained(b: _Book, entries: list[_Entry], heading: str, area: _Area, solutions: bool) -> None:
    """Each solution (when asked) with its numbered solve path, flowing down two columns a
    page, as a newspaper does; a step that wraps is indented under its text."""
    from ..logic import solve_path

    c = b.c
    size, leading, gutter = 7.4, 9.2, 18.0
    col_w = (area.w - gutter) / 2
    top = area.y + area.h
    col, y = 0, top
    b.start_page(heading)

    def room(height: float) -> float:
        """Move to the next column (or page) unless ``height`` fits below ``y``; the x of
        the column."""
        nonlocal col, y
        if y - height < area.y and y < top:
            col, y = col + 1, top
            if col == 2:
                b.start_page(heading)
                col = 0
        return area.x + col * (col_w + gutter)

    for entry in entries:
        shape = entry.puzzle.shape
        cell = min(12.0, math.floor(col_w / shape.n * 4) / 4)
        grid = entry.solution if solutions else None
        side = shape.n * cell if grid is not None else 0.0
        if y < top:
            y -= 14  # space between puzzles
        x = room(16 + side + 3 * leading)
        b.label(entry.number, entry.label, x, y - 10, 10.0, col_w, solution=solutions)
        y -= 18
        if grid is not None:
            b.grid(grid, x, y - side, cell, pencil=False, givens=entry.puzzle)
            y -= side + 6
        elif solutions:
            c.setFillColorRGB(*_GREY)
            c.setFont(b.regular, size)
            c.drawString(x, y - leading, "(no solution)")
            y -= leading
        path = solve_path(entry.puzzle)
        lines = [f"{i}. [{s.rating:.1f}] {s.text}" for i, s in enumerate(path.steps, 1)]
        lines.append(
            "Solved."
            if path.solved
            else f"Stuck after {len(path.steps)} steps: sudokit's techniques go no further."
        )
        c.setFillColorRGB(0, 0, 0)
        c.setFont(b.regular, size)
        for line in lines:
            words = line.split(" ")
            indent = b.width_of(words[0] + " ", b.regular, size)
            first = True
            while words:
                x = room(leading)
                left = x + (0.0 if first else indent)
                taken = [words.pop(0)]
                while words and (
                    b.width_of(" ".join([*taken, words[0]]), b.regular, size) <= x + col_w - left
                ):
                    taken.append(words.pop(0))
                y -= leading
                c.setFont(b.regular, size)
                c.drawString(left, y, " ".join(taken))
                first = False
