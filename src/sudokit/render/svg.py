"""SVG pictures of grids: clues, a player's digits, pencil marks and a logic step's highlights.

Pure standard library. The picture is a function of its arguments: the same input gives the
same bytes (no ids from counters, no dates, numbers written with at most two decimals).

Terms:

- A **unit** of drawing is one SVG user unit; a cell is :data:`CELL` units wide and the
  ``viewBox`` covers the grid plus a margin, so the picture scales to any ``size``.
- **Pencil marks** (candidates) are drawn small, in a mini-grid of ``box_rows`` rows and
  ``box_cols`` columns inside each cell (3x3 for a 9x9 grid, 2x3 for a 6x6 grid of 2x3 boxes),
  digit ``d`` at the ``d``-th place in reading order.
- A **candidate position** is the centre of digit ``d``'s place in cell ``c``; a step's links
  are drawn as arrows between candidate positions.

What the rules add (:mod:`sudokit.render.marks`): a jigsaw's regions get the thick lines in
place of the boxes, Sudoku-X its two diagonals, Windoku its windows shaded grey, disjoint
groups a light tint per group, killer cages a dotted outline inset in their cells with the
sum small in the top-left corner (pencil marks then sit lower, below the sums), and every
rule set other than the classic one a statement of
its rules under the grid (the picture grows taller by its lines). A classic grid's picture is
as it always was.

What a step shows (:class:`sudokit.logic.Step`): its ``units`` as light bands, its ``cells``
(the pattern) in light blue with their ``digits`` circled, its ``placements`` in green, its
``eliminations`` as red struck-through candidates, and its ``links`` as arrows, solid for strong
links and dashed for weak ones.

>>> from sudokit import Grid
>>> picture = svg(Grid("1.3. ..12 .... 4..3"))
>>> picture.startswith("<svg") and 'viewBox="0 0 168 168"' in picture
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Protocol
from xml.sax.saxutils import escape, quoteattr

from .._grid import Grid
from .._shape import Shape
from ..formats import DEFAULT_ALPHABET
from .marks import (
    CAGE_INSET,
    CAGE_SUM_FONT,
    CAGE_SUM_ROOM,
    GROUP_TINTS,
    WINDOW_TINT,
    RuleMarks,
    rule_marks,
    wrap,
)

if TYPE_CHECKING:
    from ..logic import Step

__all__ = ["CELL", "COLORS", "svg", "symbols_for"]

#: The side of a cell, in SVG user units.
CELL = 40
#: The space around the grid, in user units (room for the outer border).
MARGIN = 4
_THIN = 1.0
_THICK = 3.0

#: Colours by role; every drawn element also carries a ``class`` of the same name.
COLORS = {
    "background": "#ffffff",
    "line": "#000000",
    "clue": "#000000",
    "player": "#1c4fd8",
    "candidate": "#555555",
    "unit": "#fff3bf",
    "pattern": "#d6e6ff",
    "pattern-digit": "#9ec5fe",
    "placement": "#c6f0cf",
    "placement-digit": "#1a7f37",
    "elimination": "#d00000",
    "elimination-mark": "#ffd6d6",
    "link": "#7a3fd1",
    "diagonal": "#6f7f99",
    "cage": "#333333",
    "cage-sum": "#000000",
    "rules": "#333333",
}
#: The font size of the statement of the rules under the grid, and its line height.
_RULES_FONT = 11.0
_RULES_LINE = 14.0

FONT_FAMILY = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"


class _State(Protocol):
    """What :func:`svg` reads from a :class:`sudokit.logic.Candidates` (duck-typed, so this
    module never imports the logic engine)."""

    values: list[int]
    cand: list[int]


def symbols_for(n: int, alphabet: str | None = None) -> tuple[str, ...]:
    """The text of digits ``1..n``: ``alphabet`` (checked as the text formats check it), the
    default ``1-9A-Za-z``, or decimal numbers past the default's 61 digits.

    >>> symbols_for(4), symbols_for(16, "0123456789ABCDEF")[:3], symbols_for(64)[-1]
    (('1', '2', '3', '4'), ('0', '1', '2'), '64')
    """
    if alphabet is None:
        if n > len(DEFAULT_ALPHABET):
            return tuple(str(d) for d in range(1, n + 1))
        return tuple(DEFAULT_ALPHABET[:n])
    from ..formats import symbol_table

    return symbol_table(n, alphabet, ".")[1:]


def _num(value: float) -> str:
    """A coordinate as short, fixed text: at most two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _masks(
    shape: Shape, candidates: Sequence[int] | _State | None
) -> tuple[list[int] | None, list[int]]:
    """Candidate masks per cell (or None), and the values a candidate state holds."""
    if candidates is None:
        return None, []
    if hasattr(candidates, "cand") and hasattr(candidates, "values"):
        masks, values = list(candidates.cand), list(candidates.values)
    else:
        masks, values = list(candidates), []
    if len(masks) != shape.size:
        raise ValueError(f"expected {shape.size} candidate masks, got {len(masks)}")
    full = (1 << shape.n) - 1
    return [m & full if type(m) is int else _bad_mask(c, m) for c, m in enumerate(masks)], values


def _bad_mask(cell: int, mask: object) -> int:
    raise ValueError(f"candidate mask of cell {cell} must be an int, got {mask!r:.40}")


def _player_digits(shape: Shape, player: Grid | Mapping[int, int] | None) -> dict[int, int]:
    if player is None:
        return {}
    if isinstance(player, Grid):
        if player.shape != shape:
            raise ValueError(f"player grid has shape {player.shape}, the grid {shape}")
        return {c: d for c, d in enumerate(player.cells) if d}
    out = {}
    for cell, digit in sorted(player.items()):
        if not 0 <= cell < shape.size or not 0 <= digit <= shape.n:
            raise ValueError(f"player digit {digit!r} at cell {cell!r} is out of range")
        if digit:
            out[cell] = digit
    return out


class _Canvas:
    """Positions of a shape in user units, and the element list being written."""

    def __init__(self, shape: Shape, wide: int = 1, caged: bool = False) -> None:
        self.shape = shape
        self.n = shape.n
        self.side = self.n * CELL + 2 * MARGIN
        # Pencil-mark places: box_cols across, box_rows down, inset from the cell's edges
        # (in a killer grid, inside the cages' outlines and below the room of a cage's sum).
        inset = CELL * (CAGE_INSET + 0.02) if caged else CELL * 0.06
        self.top = CELL * CAGE_SUM_ROOM if caged else inset
        self.mark_w = (CELL - 2 * inset) / shape.box_cols
        self.mark_h = (CELL - inset - self.top) / shape.box_rows
        self.inset = inset
        # A symbol of several characters (digits past 61 without an alphabet) is set smaller:
        # a character is about 0.64 em wide.
        per_em = 0.64 * wide
        self.mark_font = min(self.mark_w * 0.8, self.mark_h * 0.82, self.mark_w * 0.9 / per_em)
        self.digit_font = min(CELL * 0.62, CELL * 0.82 / per_em)
        self.out: list[str] = []

    def corner(self, cell: int) -> tuple[float, float]:
        r, c = divmod(cell, self.n)
        return MARGIN + c * CELL, MARGIN + r * CELL

    def centre(self, cell: int) -> tuple[float, float]:
        x, y = self.corner(cell)
        return x + CELL / 2, y + CELL / 2

    def mark(self, cell: int, digit: int) -> tuple[float, float]:
        """The candidate position of ``digit`` in ``cell``."""
        x, y = self.corner(cell)
        r, c = divmod(digit - 1, self.shape.box_cols)
        return x + self.inset + (c + 0.5) * self.mark_w, y + self.top + (r + 0.5) * self.mark_h

    def add(self, text: str) -> None:
        self.out.append(text)

    def rect(self, cell: int, role: str) -> None:
        x, y = self.corner(cell)
        self.add(
            f'<rect class="{role}" x="{_num(x)}" y="{_num(y)}" width="{CELL}" height="{CELL}" '
            f'fill="{COLORS[role]}"/>'
        )

    def text(self, x: float, y: float, size: float, symbol: str, attrs: str) -> None:
        # A baseline a third of the size below the centre: no dominant-baseline, which some
        # renderers ignore.
        self.add(
            f'<text x="{_num(x)}" y="{_num(y + size * 0.35)}" font-size="{_num(size)}"'
            f"{attrs}>{escape(symbol)}</text>"
        )


def _unit_band(cv: _Canvas, unit: int) -> None:
    cells = cv.shape.units[unit]
    x0, y0 = cv.corner(min(cells))
    x1, y1 = cv.corner(max(cells))
    cv.add(
        f'<rect class="unit" x="{_num(x0)}" y="{_num(y0)}" width="{_num(x1 - x0 + CELL)}" '
        f'height="{_num(y1 - y0 + CELL)}" fill="{COLORS["unit"]}"/>'
    )


def _lines(cv: _Canvas, marks: RuleMarks | None = None) -> None:
    n, br, bc = cv.n, cv.shape.box_rows, cv.shape.box_cols
    lo, hi = MARGIN, MARGIN + n * CELL
    thin: list[str] = []
    thick: list[str] = []
    for i in range(1, n):
        at = _num(MARGIN + i * CELL)
        if marks is None:
            (thick if i % bc == 0 else thin).append(f"M{at} {lo}V{hi}")
            (thick if i % br == 0 else thin).append(f"M{lo} {at}H{hi}")
        else:  # the rules' borders, one cell edge each, over thin lines everywhere
            thin.append(f"M{at} {lo}V{hi}")
            thin.append(f"M{lo} {at}H{hi}")
    if marks is not None:
        for kind, x, y in marks.borders:
            px, py = _num(MARGIN + x * CELL), _num(MARGIN + y * CELL)
            if kind == "v":
                thick.append(f"M{px} {py}V{_num(MARGIN + (y + 1) * CELL)}")
            else:
                thick.append(f"M{px} {py}H{_num(MARGIN + (x + 1) * CELL)}")
    color = COLORS["line"]
    if thin:
        cv.add(
            f'<path class="thin" d="{"".join(thin)}" stroke="{color}" '
            f'stroke-width="{_num(_THIN)}"/>'
        )
    if thick:
        cv.add(
            f'<path class="thick" d="{"".join(thick)}" stroke="{color}" '
            f'stroke-width="{_num(_THICK)}" stroke-linecap="square"/>'
        )
    cv.add(
        f'<rect class="border" x="{lo}" y="{lo}" width="{n * CELL}" height="{n * CELL}" '
        f'fill="none" stroke="{color}" stroke-width="{_num(_THICK)}"/>'
    )


def _shading(cv: _Canvas, marks: RuleMarks) -> None:
    """The disjoint groups' tints and the windows' shade, under everything else."""
    if marks.groups is not None:
        for cell, group in enumerate(marks.groups):
            x, y = cv.corner(cell)
            cv.add(
                f'<rect class="group" x="{_num(x)}" y="{_num(y)}" width="{CELL}" '
                f'height="{CELL}" fill="{GROUP_TINTS[group % len(GROUP_TINTS)]}"/>'
            )
    for x, y, k in marks.windows:
        cv.add(
            f'<rect class="window" x="{_num(MARGIN + x * CELL)}" y="{_num(MARGIN + y * CELL)}" '
            f'width="{k * CELL}" height="{k * CELL}" fill="{WINDOW_TINT}" fill-opacity="0.75"/>'
        )


def _diagonals(cv: _Canvas) -> None:
    lo, hi = _num(MARGIN), _num(MARGIN + cv.n * CELL)
    for x1, x2 in ((lo, hi), (hi, lo)):
        cv.add(
            f'<line class="diagonal" x1="{x1}" y1="{lo}" x2="{x2}" y2="{hi}" '
            f'stroke="{COLORS["diagonal"]}" stroke-width="1.5"/>'
        )


def _cages(cv: _Canvas, marks: RuleMarks) -> None:
    """Each cage's dotted outline, then its sum on a patch of background that breaks the
    outline where the sum sits."""
    for loops in marks.cages:
        d = "".join(
            "M"
            + "L".join(f"{_num(MARGIN + x * CELL)} {_num(MARGIN + y * CELL)}" for x, y in loop)
            + "Z"
            for loop in loops
        )
        cv.add(
            f'<path class="cage" d="{d}" fill="none" stroke="{COLORS["cage"]}" '
            'stroke-width="1" stroke-dasharray="3 2"/>'
        )
    size = CELL * CAGE_SUM_FONT
    for cell, total in marks.cage_sums:
        x, y = cv.corner(cell)
        text = str(total)
        wide = size * 0.6 * len(text) + 2
        cv.add(
            f'<rect class="cage-sum-back" x="{_num(x + 1.5)}" y="{_num(y + 1.5)}" '
            f'width="{_num(wide)}" height="{_num(size + 1)}" fill="{COLORS["background"]}"/>'
        )
        cv.add(
            f'<text class="cage-sum" x="{_num(x + 2.5)}" y="{_num(y + 1.5 + size * 0.85)}" '
            f'font-size="{_num(size)}" text-anchor="start" '
            f'fill="{COLORS["cage-sum"]}">{escape(text)}</text>'
        )


def _statement_lines(cv: _Canvas, marks: RuleMarks | None) -> list[str]:
    if marks is None or not marks.statement:
        return []
    return wrap(marks.statement, int(cv.n * CELL / (_RULES_FONT * 0.56)))


def _link(cv: _Canvas, cell: int, digit: int, cell2: int, digit2: int, strong: bool) -> None:
    """An arrow between two candidate positions, bent a little so that it passes beside the
    candidates between them rather than through them."""
    x1, y1 = cv.mark(cell, digit)
    x2, y2 = cv.mark(cell2, digit2)
    dx, dy = x2 - x1, y2 - y1
    length = math.hypot(dx, dy)
    if length < 1e-9:
        return
    ux, uy = dx / length, dy / length
    gap = cv.mark_font * 0.6  # start and end at the edge of the candidates' circles
    if length <= 2 * gap:
        return
    x1, y1, x2, y2 = x1 + ux * gap, y1 + uy * gap, x2 - ux * gap, y2 - uy * gap
    bend = min(length * 0.15, CELL * 0.6)
    cx, cy = (x1 + x2) / 2 - uy * bend, (y1 + y2) / 2 + ux * bend
    dash = "" if strong else ' stroke-dasharray="4 3"'
    kind = "strong" if strong else "weak"
    cv.add(
        f'<path class="link {kind}" d="M{_num(x1)} {_num(y1)}Q{_num(cx)} {_num(cy)} '
        f'{_num(x2)} {_num(y2)}" fill="none" stroke="{COLORS["link"]}" stroke-width="1.5"'
        f'{dash} marker-end="url(#sudokit-arrow)"/>'
    )


def svg(
    grid: Grid | str,
    *,
    candidates: Sequence[int] | _State | None = None,
    player: Grid | Mapping[int, int] | None = None,
    step: Step | None = None,
    size: float | None = None,
    alphabet: str | None = None,
) -> str:
    """An SVG document of ``grid``: its clues in bold, and optionally more.

    - ``candidates``: pencil marks for the empty cells, a mask per cell (bit ``d-1`` for digit
      ``d``) or a :class:`sudokit.logic.Candidates` (whose placed values the grid lacks are
      drawn as the player's).
    - ``player``: the player's own digits, in blue: a Grid of the same shape (its clues are the
      grid's anyway) or a mapping of cell to digit.
    - ``step``: a :class:`sudokit.logic.Step` to highlight (see the module notes).
    - ``size``: the width and height in pixels (default: one pixel per user unit, 40 a cell).
    - ``alphabet``: the digit symbols (default ``1-9A-Za-z``).

    >>> from sudokit import Grid
    >>> grid = Grid("1.3. ..12 .... 4..3")
    >>> picture = svg(grid, candidates=[0b1111] * 16, size=200)
    >>> 'width="200"' in picture, picture.count('class="candidate"')
    (True, 40)
    """
    grid = Grid.of(grid)
    shape = grid.shape
    n = shape.n
    symbols = symbols_for(n, alphabet)
    masks, state_values = _masks(shape, candidates)
    own = _player_digits(shape, player)
    for c, v in enumerate(state_values):
        if v and not grid.cells[c]:
            own.setdefault(c, v)
    art = None if grid.rules.is_classic else rule_marks(shape, grid.rules)
    cv = _Canvas(shape, max(map(len, symbols)), caged=art is not None and bool(art.cages))
    stated = _statement_lines(cv, art)
    side = _num(cv.side)
    tall = cv.side + (len(stated) * _RULES_LINE + MARGIN if stated else 0)
    width = _num(size) if size is not None else side
    height = _num(size * tall / cv.side) if size is not None else _num(tall)
    cv.add(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {_num(tall)}" '
        f'width="{width}" height="{height}" class="sudokit-grid" '
        f'font-family={quoteattr(FONT_FAMILY)} text-anchor="middle">'
    )
    if step is not None and step.links:
        cv.add(
            '<defs><marker id="sudokit-arrow" viewBox="0 0 10 10" refX="9" refY="5" '
            'markerWidth="6" markerHeight="6" orient="auto-start-reverse">'
            f'<path d="M0 0L10 5L0 10z" fill="{COLORS["link"]}"/></marker></defs>'
        )
    cv.add(
        f'<rect class="background" x="0" y="0" width="{side}" height="{_num(tall)}" '
        f'fill="{COLORS["background"]}"/>'
    )
    if art is not None:
        _shading(cv, art)

    placements: dict[int, int] = {}
    eliminated: set[tuple[int, int]] = set()
    pattern: set[tuple[int, int]] = set()  # candidates of the pattern, circled
    if step is not None:
        if step.shape != shape:
            raise ValueError(f"step is for shape {step.shape}, the grid is {shape}")
        for unit in step.units:
            _unit_band(cv, unit)
        for cell in sorted(set(step.cells)):
            cv.rect(cell, "pattern")
        placements = dict(step.placements)
        for cell in sorted(placements):
            cv.rect(cell, "placement")
        eliminated = set(step.eliminations)
        pattern = {(c, d) for c in step.cells for d in step.digits}
        for link in step.links:
            pattern.add((link.cell, link.digit))
            pattern.add((link.cell2, link.digit2))
    _lines(cv, art)
    if art is not None and art.diagonals:
        _diagonals(cv)
    if art is not None and art.cages:
        _cages(cv, art)

    clue_attrs = f' class="clue" font-weight="bold" fill="{COLORS["clue"]}"'
    player_attrs = f' class="player" fill="{COLORS["player"]}"'
    placed_attrs = f' class="placement-digit" fill="{COLORS["placement-digit"]}"'
    filled: set[int] = set()
    for cell, digit in enumerate(grid.cells):
        if digit:
            filled.add(cell)
            cv.text(*cv.centre(cell), cv.digit_font, symbols[digit - 1], clue_attrs)
    for cell, digit in sorted(own.items()):
        if cell not in filled:
            filled.add(cell)
            cv.text(*cv.centre(cell), cv.digit_font, symbols[digit - 1], player_attrs)

    # Pencil marks: the given ones, plus whatever the step speaks of (so that a step drawn
    # without candidates still shows its eliminations and link ends).
    marks: dict[int, int] = {}
    if masks is not None:
        for cell, mask in enumerate(masks):
            if mask and cell not in filled:
                marks[cell] = mask
    for cell, digit in (*eliminated, *(p for p in pattern if masks is None)):
        if cell not in filled:
            marks[cell] = marks.get(cell, 0) | 1 << (digit - 1)
    for cell, digit in sorted(placements.items()):
        if cell not in filled:
            cv.text(*cv.centre(cell), cv.digit_font, symbols[digit - 1], placed_attrs)
            filled.add(cell)
    _marks(cv, marks, filled, symbols, eliminated, pattern)

    if step is not None and step.links:
        cv.add('<g class="links">')
        for link in step.links:
            _link(cv, link.cell, link.digit, link.cell2, link.digit2, link.strong)
        cv.add("</g>")
    for i, line in enumerate(stated):
        y = cv.side + i * _RULES_LINE + _RULES_FONT * 0.35 + MARGIN
        cv.add(
            f'<text class="rules" x="{MARGIN}" y="{_num(y)}" font-size="{_num(_RULES_FONT)}" '
            f'text-anchor="start" fill="{COLORS["rules"]}">{escape(line)}</text>'
        )
    cv.add("</svg>")
    return "\n".join(cv.out) + "\n"


def _marks(
    cv: _Canvas,
    marks: Mapping[int, int],
    filled: set[int],
    symbols: Sequence[str],
    eliminated: set[tuple[int, int]],
    pattern: set[tuple[int, int]],
) -> None:
    if not marks:
        return
    radius = _num(cv.mark_font * 0.6)
    size = cv.mark_font
    plain = f' class="candidate" fill="{COLORS["candidate"]}"'
    struck = f' class="elimination" fill="{COLORS["elimination"]}"'
    cv.add(f'<g class="pencil-marks" font-size="{_num(size)}">')
    for cell in sorted(marks):
        if cell in filled:
            continue
        for digit in _digits(marks[cell]):
            x, y = cv.mark(cell, digit)
            key = (cell, digit)
            if key in eliminated or key in pattern:
                role = "elimination-mark" if key in eliminated else "pattern-digit"
                cv.add(
                    f'<circle class="{role}" cx="{_num(x)}" cy="{_num(y)}" r="{radius}" '
                    f'fill="{COLORS[role]}"/>'
                )
            cv.text(x, y, size, symbols[digit - 1], struck if key in eliminated else plain)
            if key in eliminated:
                half = size * 0.45
                cv.add(
                    f'<path class="strike" d="M{_num(x - half)} {_num(y + half)}'
                    f'L{_num(x + half)} {_num(y - half)}" stroke="{COLORS["elimination"]}" '
                    f'stroke-width="{_num(max(1.0, size * 0.1))}"/>'
                )
    cv.add("</g>")


def _digits(mask: int) -> Iterable[int]:
    d = 1
    while mask:
        if mask & 1:
            yield d
        mask >>= 1
        d += 1
