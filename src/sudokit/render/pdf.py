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

A grid with rules beyond the classic ones is drawn with what they add
(:mod:`sudokit.render.marks`: a jigsaw's region borders, the diagonals, shaded windows, tinted
groups, killer cages as dotted outlines with their sums; one form per shape and rules), and its
puzzle has the statement of its rules under it. A killer's solution is drawn without its cages.
"""

from __future__ import annotations

import math
import os
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING

from .._files import replacing
from .._grid import Grid
from .._shape import Shape
from ..formats.statement import rules_statement
from ..generator import Generated
from ..output import LABEL_FIELDS, Label, label_of
from ..rules import Rules
from .marks import CAGE_INSET, CAGE_SUM_ROOM, rule_marks, wrap
from .pdfmarks import draw_marks
from .svg import symbols_for

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

__all__ = [
    "MIN_CELL",
    "PAGE_SIZES",
    "PER_PAGE",
    "BookSummary",
    "book",
    "font_files",
]

#: Page sizes in points (1/72 inch).
PAGE_SIZES = {"A4": (595.2756, 841.8898), "Letter": (612.0, 792.0)}
#: Slots (columns, rows) of a puzzle page, by puzzles per page.
PER_PAGE = {1: (1, 1), 2: (1, 2), 4: (2, 2), 6: (2, 3)}
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
_RULES_SIZE = 7.5  # the statement of the rules under a puzzle: font size and leading
_RULES_LEADING = 9.0
_RULES_LINES = 3  # lines a puzzle's layout keeps for it (a longer one is set smaller)
_PENCIL = (0.38, 0.38, 0.38)

_DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
_TITLE_SIZE = 15.0
_TITLE_MIN = 9.0
#: TrueType fonts (reportlab embeds TrueType outlines only) used for a title whose characters
#: the book's font lacks, such as Chinese, Japanese or Korean; the first one found that has
#: every character is embedded.
FALLBACK_FONTS = (
    Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"),  # fonts-droid-fallback
    Path("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"),  # fonts-wqy-zenhei
    Path("/usr/share/fonts/truetype/nanum/NanumGothic.ttf"),  # fonts-nanum (Korean)
)


# The book --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BookSummary:
    """What :func:`book` wrote: puzzles, and pages in all and by section."""

    puzzles: int
    pages: int
    puzzle_pages: int
    solution_pages: int
    #: What the book did differently from what was asked, for the user to hear of (a big
    #: grid placed fewer to a page than ``per_page``, a font for a title's script).
    notes: tuple[str, ...] = ()


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


def _has(font: str, ch: str) -> bool:
    from reportlab.pdfbase import pdfmetrics

    return ch.isspace() or ord(ch) in pdfmetrics.getFont(font).face.charWidths  # type: ignore[attr-defined]


def _runs(text: str, preferred: str) -> list[tuple[str, str]]:
    """``text`` cut into runs, each set in the first font that has all its characters: the
    book's own font first, then the fallback fonts found on this machine (embedded like the
    others). Raises ValueError naming the characters no font has: a book never prints empty
    boxes."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    fonts = [preferred]
    if not all(_has(preferred, ch) for ch in text):
        for i, path in enumerate(FALLBACK_FONTS):
            if path.is_file():
                name = f"SudokitFallback{i}"
                if name not in pdfmetrics.getRegisteredFontNames():
                    pdfmetrics.registerFont(TTFont(name, str(path)))
                fonts.append(name)
    missing = sorted({ch for ch in text if not any(_has(f, ch) for f in fonts)})
    if missing:
        raise ValueError(
            f"no font here has the characters {''.join(missing[:20])!r} of the title: the "
            "book's font covers Latin, Greek and Cyrillic; for Chinese and Japanese install "
            "Debian's fonts-droid-fallback, for Korean fonts-nanum"
        )
    runs: list[tuple[str, str]] = []
    for ch in text:
        font = (
            runs[-1][1] if runs and _has(runs[-1][1], ch) else next(f for f in fonts if _has(f, ch))
        )
        if runs and runs[-1][1] == font:
            runs[-1] = (runs[-1][0] + ch, font)
        else:
            runs.append((ch, font))
    return runs


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


def _puzzle_layout(
    shape: Shape, area: _Area, per_page: int, pencil: bool, stated: bool = False
) -> _Layout:
    """The most slots, up to ``per_page``, whose cells stay legible (see the module notes);
    ``stated``: room under each grid for the statement of its rules."""
    need = MIN_CELL
    if pencil:  # pencil marks need room too: about 5.5 pt a mini-cell
        need = max(need, 5.5 * max(shape.box_rows, shape.box_cols))
    options = [k for k in sorted(PER_PAGE, reverse=True) if k <= per_page]
    extra = _RULES_LINES * _RULES_LEADING + 4 if stated else 0.0
    for k in options:
        cols, rows = PER_PAGE[k]
        cell = _cell_for(shape, area, cols, rows, _label_height(_PUZZLE_LABEL) + extra)
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
        self.title_runs = _runs(title, self.bold) if title else []
        self.forms: set[str] = set()
        self.rule_forms: dict[Rules, int] = {}  # each rule set's number in its forms' names
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
            self.draw_title()
        if heading:
            c.setFillColorRGB(0, 0, 0)
            c.setFont(self.bold, 13)
            c.drawString(_MARGIN, self.height - _MARGIN - 10, heading)

    def draw_title(self) -> None:
        """The title centred on top, shrunk to fit the width down to a legible size, and past
        that cut short with an ellipsis."""
        runs = list(self.title_runs)
        room = self.width - 2 * _MARGIN

        def width(size: float) -> float:
            return sum(self.width_of(text, font, size) for text, font in runs)

        size = _TITLE_SIZE
        if width(size) > room:
            size = max(_TITLE_MIN, size * room / width(size))
        if width(size) > room:
            runs.append(("…", self.bold))
            while width(size) > room and len(runs) > 1:
                text, font = runs[-2]
                runs[-2:] = [(text[:-1], font), runs[-1]] if len(text) > 1 else [runs[-1]]
        c = self.c
        c.setFillColorRGB(0, 0, 0)
        x = (self.width - width(size)) / 2
        for text, font in runs:
            c.setFont(font, size)
            c.drawString(x, self.height - _MARGIN - 8, text)
            x += self.width_of(text, font, size)

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

    def _form(self, shape: Shape, cell: float, rules: Rules | None = None) -> str:
        """The name of the form holding the lines of a grid of ``shape`` and ``cell`` (and
        what ``rules`` add, when given and not classic)."""
        name = f"grid{shape.box_rows}x{shape.box_cols}c{round(cell * 100)}"
        if rules is not None and not rules.is_classic:
            self.rule_forms.setdefault(rules, len(self.rule_forms))
            name += f"r{self.rule_forms[rules]}"
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
        if rules is not None and not rules.is_classic:
            draw_marks(c, rule_marks(shape, rules), n, cell, thin, thick, self.regular)
            c.endForm()
            return name
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

    def statement(self, rules: Rules, n: int, x: float, y: float, width: float) -> None:
        """The statement of ``rules`` from (x, y) down (the first baseline a line below
        ``y``), in at most :data:`_RULES_LINES` lines of ``width``: set smaller if need be."""
        text = rules_statement(rules, n)
        if not text:
            return
        size = _RULES_SIZE
        while True:
            per_line = max(8, int(width / (size * 0.52)))
            lines = wrap(text, per_line)
            if len(lines) <= _RULES_LINES or size <= 5.0:
                break
            size -= 0.5
        c = self.c
        c.setFillColorRGB(*_GREY)
        c.setFont(self.regular, size)
        for i, line in enumerate(lines):
            c.drawString(x, y - (i + 1) * size * 1.2, line)

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
        rules = grid.rules
        if givens is not None and rules.cages is not None:  # a solution: its digits say all
            rules = Rules.of(rules.extras, regions=rules.regions)
        form = self._form(shape, cell, rules)
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
        from ..logic import Candidates

        shape = grid.shape
        n, br, bc = shape.n, shape.box_rows, shape.box_cols
        inset = top_inset = cell * 0.07
        if grid.rules.cages is not None:  # inside the cages' outlines, below their sums
            inset, top_inset = cell * (CAGE_INSET + 0.02), cell * CAGE_SUM_ROOM
        mw, mh = (cell - 2 * inset) / bc, (cell - inset - top_inset) / br
        symbols = symbols_for(n)
        size = self.font_size(symbols, self.regular, min(mw, mh) * 0.78, mw * 0.9)
        text = self.c.beginText()
        text.setFont(self.regular, size)
        text.setFillColorRGB(*_PENCIL)
        for cell_index, mask in enumerate(Candidates.from_grid(grid).cand):
            r, col = divmod(cell_index, n)
            left, upper = x + col * cell + inset, top - r * cell - top_inset
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
        stated = givens is None and not entry.puzzle.rules.is_classic
        if stated:  # the statement goes under the grid: centre the three together
            y += (_RULES_LINES * _RULES_LEADING + 4) / 2
        self.label(
            entry.number,
            entry.label,
            x,
            y + side + label_size * 0.55,
            label_size,
            sx + sw - x,  # to the slot's right edge
            solution=givens is not None,
        )
        if grid is not None:  # every puzzle in a book has its solution (see _entries)
            self.grid(grid, x, y, layout.cell, pencil=pencil, givens=givens)
        if stated:
            self.statement(entry.puzzle.rules, entry.puzzle.shape.n, x, y - 2, sx + sw - x)


def _entries(
    puzzles: Iterable[Generated | tuple[Grid, Label | str | None]], solved: bool
) -> Iterator[_Entry]:
    from ..engine import unique_solution
    from ..errors import NotUniqueError

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
        try:
            solution = unique_solution(grid)
        except NotUniqueError as e:
            raise NotUniqueError(f"puzzle {number}: {e}", solutions=e.solutions) from None
        yield _Entry(number, label, grid, solution if solved else None)


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

    Every puzzle must have exactly one solution (:class:`~sudokit.errors.NotUniqueError` names
    the first that has not), and there must be at least one (ValueError): a book never holds a
    broken puzzle and is never empty. Given a path, the book is written to a temporary file
    beside it and renamed over the path only when complete, so an existing book survives any
    failure. ``BookSummary.notes`` says what was done differently from what was asked.
    """
    if per_page not in PER_PAGE:
        raise ValueError(f"per_page must be one of {', '.join(map(str, PER_PAGE))}, not {per_page}")
    if page_size not in PAGE_SIZES:
        raise ValueError(f"unknown page size {page_size!r}; choose from {', '.join(PAGE_SIZES)}")
    unknown = sorted(set(labels) - set(LABEL_FIELDS))
    if unknown:
        raise ValueError(f"unknown label field {unknown[0]!r}; choose from {LABEL_FIELDS}")

    if isinstance(path_or_file, str | os.PathLike):
        with replacing(path_or_file) as f:
            return _write(
                puzzles, f, per_page, page_size, title, labels, solutions, explain, pencil_marks
            )
    return _write(
        puzzles, path_or_file, per_page, page_size, title, labels, solutions, explain, pencil_marks
    )


def _write(
    puzzles: Iterable[Generated | tuple[Grid, Label | str | None]],
    target: str | IO[bytes],
    per_page: int,
    page_size: str,
    title: str | None,
    labels: Collection[str],
    solutions: bool,
    explain: bool,
    pencil_marks: bool,
) -> BookSummary:
    from reportlab.pdfgen.canvas import Canvas

    from .._version import __version__

    size = PAGE_SIZES[page_size]
    regular, _ = _fonts()  # also each page's initial font, so no unembedded Helvetica is named
    canvas = Canvas(
        target,
        pagesize=size,
        pageCompression=1,
        # dated now; with SOURCE_DATE_EPOCH set, dated then and the same bytes every time
        # (reportlab reads it; its invariant mode alone would date every book 2000-01-01)
        invariant=bool(os.environ.get("SOURCE_DATE_EPOCH", "").strip()),
        initialFontName=regular,  # type: ignore[arg-type]  # the stubs say float, wrongly
    )
    canvas.setAuthor("sudokit")
    canvas.setTitle(title or "Sudoku puzzles")
    canvas.setCreator(f"sudokit {__version__}")
    canvas.setSubject("Sudoku puzzles" + (" and solutions" if solutions else ""))
    b = _Book(canvas, size, title, labels)

    kept: list[_Entry] = []
    count = 0
    fewer: dict[Shape, int] = {}
    for entry in _entries(puzzles, solutions):
        count += 1
        stated = not entry.puzzle.rules.is_classic
        layout = _puzzle_layout(entry.puzzle.shape, b.area, per_page, pencil_marks, stated)
        if layout.slots < per_page:
            fewer[entry.puzzle.shape] = layout.slots
        b.place(entry, entry.puzzle, layout, None, b.area, _PUZZLE_LABEL, pencil_marks)
        if solutions or explain:
            kept.append(entry)
    if not count:
        raise ValueError("no puzzle to print")
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
    notes = tuple(
        f"{shape.n}x{shape.n} puzzles are printed {k} a page, not {per_page}, so their cells "
        f"stay at least {MIN_CELL:g} pt wide"
        for shape, k in fewer.items()
    )
    return BookSummary(count, b.pages, puzzle_pages, b.pages - puzzle_pages, notes)


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
