"""The marks of a grid's rules (:mod:`sudokit.render.marks`) drawn on a reportlab canvas, in
a grid's form: what :mod:`sudokit.render.pdf` adds to the lines of a grid with rules."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .marks import CAGE_SUM_FONT, GROUP_TINTS, WINDOW_TINT, RuleMarks

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

__all__ = ["draw_marks"]


def draw_marks(
    c: Canvas, art: RuleMarks, n: int, cell: float, thin: float, thick: float, font: str
) -> None:
    """A grid with rules: tints and shades, thin lines everywhere, the rules' borders
    thick, the diagonals, the cages' dotted outlines and their sums (in ``font``), the outer
    border (cell units have y downwards, PDF upwards)."""
    side = n * cell
    if art.groups is not None:
        for index, group in enumerate(art.groups):
            r, col = divmod(index, n)
            c.setFillColor(GROUP_TINTS[group % len(GROUP_TINTS)])
            c.rect(col * cell, side - (r + 1) * cell, cell, cell, stroke=0, fill=1)
    c.setFillColor(WINDOW_TINT)
    for x, y, k in art.windows:
        c.rect(x * cell, side - (y + k) * cell, k * cell, k * cell, stroke=0, fill=1)
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(thin)
    path = c.beginPath()
    for i in range(1, n):
        path.moveTo(i * cell, 0)
        path.lineTo(i * cell, side)
        path.moveTo(0, i * cell)
        path.lineTo(side, i * cell)
    c.drawPath(path, stroke=1, fill=0)
    c.setLineWidth(thick)
    c.setLineCap(2)
    path = c.beginPath()
    for kind, x, y in art.borders:
        path.moveTo(x * cell, side - y * cell)
        if kind == "v":
            path.lineTo(x * cell, side - (y + 1) * cell)
        else:
            path.lineTo((x + 1) * cell, side - y * cell)
    c.drawPath(path, stroke=1, fill=0)
    if art.diagonals:
        c.setLineCap(0)
        c.setLineWidth(max(thin, 0.8))
        c.setStrokeColorRGB(0.44, 0.5, 0.6)
        path = c.beginPath()
        path.moveTo(0, side)
        path.lineTo(side, 0)
        path.moveTo(0, 0)
        path.lineTo(side, side)
        c.drawPath(path, stroke=1, fill=0)
        c.setStrokeColorRGB(0, 0, 0)
    if art.cages:
        _cages(c, art, cell, side, thin, font)
    c.setLineWidth(thick)
    c.setLineJoin(0)
    c.rect(0, 0, side, side, stroke=1, fill=0)


def _cages(c: Canvas, art: RuleMarks, cell: float, side: float, thin: float, font: str) -> None:
    c.saveState()
    c.setStrokeColorRGB(0.2, 0.2, 0.2)
    c.setLineWidth(max(thin, 0.5))
    c.setLineCap(0)
    c.setDash(max(cell * 0.07, 1.2), max(cell * 0.05, 0.9))
    path = c.beginPath()
    for loops in art.cages:
        for loop in loops:
            x, y = loop[0]
            path.moveTo(x * cell, side - y * cell)
            for x, y in loop[1:]:
                path.lineTo(x * cell, side - y * cell)
            path.close()
    c.drawPath(path, stroke=1, fill=0)
    c.restoreState()
    size = cell * CAGE_SUM_FONT
    n = round(side / cell)
    for at, total in art.cage_sums:
        r, col = divmod(at, n)
        text = str(total)
        x, top = col * cell + cell * 0.04, side - r * cell - cell * 0.04
        c.setFillColorRGB(1, 1, 1)  # a patch that breaks the outline under the sum
        c.rect(
            x,
            top - size * 1.05,
            c.stringWidth(text, font, size) + size * 0.3,
            size * 1.05,
            stroke=0,
            fill=1,
        )
        c.setFillColorRGB(0, 0, 0)
        c.setFont(font, size)
        c.drawString(x + size * 0.12, top - size * 0.85, text)
