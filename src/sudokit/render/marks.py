"""What a grid's rules add to its picture, worked out once for every renderer (SVG, PDF).

Terms (in cell units: the grid spans 0..n across and down, ``x`` to the right, ``y`` down):

- **Borders**: the thick lines between houses that replace the boxes: a jigsaw's region
  borders, else the box lines. Each is one cell edge: ``("v", x, y)`` is the vertical edge at
  ``x`` from ``y`` to ``y + 1``, ``("h", x, y)`` the horizontal edge at ``y`` from ``x`` to
  ``x + 1``; the outer border is not among them.
- **Diagonals** (``x``): the two main diagonals, drawn as lines corner to corner.
- **Windows** (``windoku``): squares ``(x, y, side)`` shaded grey (the windows proper, not the
  houses they imply).
- **Groups** (``dg``): each cell's disjoint group (its place in its box), shown as a light
  tint per group, :data:`GROUP_TINTS` in turn.
- **Cages** (``killer``): each cage's outline, a closed dotted path inset :data:`CAGE_INSET`
  inside the cage's cells (so that the outlines of two touching cages and the cell lines stay
  apart), as the corners of the path in cell units; and each cage's sum, written small in the
  top-left corner of its first cell (row-major: the top row's leftmost cell), at
  :data:`CAGE_SUM_FONT` of a cell. A cell with a sum keeps its top :data:`CAGE_SUM_ROOM` of a
  cell for it: renderers set pencil marks below that in killer grids.
- The **statement**: the rules in words (:func:`sudokit.formats.statement.rules_statement`),
  set under the grid; the neighbour rules and non-consecutive are stated only.

>>> from sudokit import Shape
>>> from sudokit.rules import Rules
>>> m = rule_marks(Shape(3, 3), Rules("x+windoku"))
>>> m.diagonals, m.windows[0], len(m.borders)
(True, (1, 1, 3), 36)
>>> k = rule_marks(Shape(2, 2), Rules("killer:AABB CCDB EEDF GGHF / 3,9,7,5,4,6,5,2"))
>>> len(k.cages), k.cage_sums[0], k.cages[0][0][0]
(8, (0, 3), (0.1, 0.1))
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .._shape import Shape
from ..cages import Cages
from ..formats.statement import rules_statement
from ..rules import Rules, geometry

__all__ = [
    "CAGE_INSET",
    "CAGE_SUM_FONT",
    "CAGE_SUM_ROOM",
    "GROUP_TINTS",
    "WINDOW_TINT",
    "RuleMarks",
    "cage_outline",
    "rule_marks",
    "wrap",
]

#: Light fills for the disjoint groups, one per place in a box (taken in turn past 16).
GROUP_TINTS = (
    "#fde2e4",
    "#e2ece9",
    "#dfe7fd",
    "#fff1c1",
    "#e8dff5",
    "#d8f3dc",
    "#fce1c8",
    "#d0f0f7",
    "#f1e3d3",
    "#e4f1c5",
    "#f7d9ec",
    "#dbe4ee",
    "#fbe7a1",
    "#cde8e0",
    "#efd9f7",
    "#e9ecef",
)
#: The fill of a windoku window.
WINDOW_TINT = "#d9d9d9"
#: How far inside its cells a cage's dotted outline runs, in cells.
CAGE_INSET = 0.1
#: The size of a cage's sum, in cells.
CAGE_SUM_FONT = 0.24
#: The top part of a cell that a cage's sum may take, in cells (pencil marks go below it).
CAGE_SUM_ROOM = 0.3

#: A point of a cage outline, in cell units.
Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class RuleMarks:
    """What to draw for one (shape, rules): see the module notes."""

    borders: tuple[tuple[str, int, int], ...]
    diagonals: bool
    windows: tuple[tuple[int, int, int], ...]
    groups: tuple[int, ...] | None
    statement: str
    #: Each cage's outline: closed paths (one, or more round a hole), each as its corners in
    #: cell units.
    cages: tuple[tuple[tuple[Point, ...], ...], ...] = ()
    #: Each cage's sum and the cell it is written in: ``(cell, sum)``.
    cage_sums: tuple[tuple[int, int], ...] = ()


@lru_cache(maxsize=256)
def rule_marks(shape: Shape, rules: Rules) -> RuleMarks:
    """The marks of ``rules`` on ``shape`` (InvalidRulesError if they do not fit it)."""
    geo = geometry(shape, rules)
    n = shape.n
    if rules.regions is not None:
        region = rules.regions
    else:
        region = tuple(shape.box_of(c) for c in range(shape.size))
    borders: list[tuple[str, int, int]] = []
    for r in range(n):
        for c in range(n):
            if c + 1 < n and region[r * n + c] != region[r * n + c + 1]:
                borders.append(("v", c + 1, r))
            if r + 1 < n and region[r * n + c] != region[(r + 1) * n + c]:
                borders.append(("h", c, r + 1))
    windows = []
    for house, name in zip(geo.houses, geo.house_names, strict=True):
        if name.startswith("window "):
            r0, c0 = divmod(min(house), n)
            r1 = max(house) // n
            windows.append((c0, r0, r1 - r0 + 1))
    groups = None
    if "dg" in rules.extras:
        br, bc = shape.box_rows, shape.box_cols
        groups = tuple((c // n % br) * bc + c % n % bc for c in range(shape.size))
    return RuleMarks(
        borders=tuple(borders),
        diagonals="x" in rules.extras,
        windows=tuple(windows),
        groups=groups,
        statement=rules_statement(rules, n),
        cages=() if rules.cages is None else _outlines(rules.cages),
        cage_sums=()
        if rules.cages is None
        else tuple((cage.cells[0], cage.total) for cage in rules.cages),
    )


def _outlines(cages: Cages) -> tuple[tuple[tuple[Point, ...], ...], ...]:
    return tuple(cage_outline(cage.cells, cages.n) for cage in cages)


def cage_outline(
    cells: tuple[int, ...], n: int, inset: float = CAGE_INSET
) -> tuple[tuple[Point, ...], ...]:
    """The outline of a cage of ``cells`` on a side-``n`` grid, ``inset`` inside them: closed
    paths, each as its corners (the first not repeated) in cell units, going clockwise; the
    first starts at the top-left corner of the cage's first cell.

    Each side of a cell on the cage's edge gives a piece of the path, ``inset`` inside the
    cell; at each end the piece stops ``inset`` short of the corner when the edge turns there
    outwards, runs on to the next cell's piece when the edge goes straight on, and goes
    ``inset`` past the corner when the edge turns inwards (a notch), where it meets the piece
    of the cell across the notch. A cage that rings round a hole has a second path, inside.

    >>> cage_outline((0, 1), 3)
    (((0.1, 0.1), (1.9, 0.1), (1.9, 0.9), (0.1, 0.9)),)
    """
    inside = set(cells)

    def has(r: int, c: int) -> bool:
        return 0 <= r < n and 0 <= c < n and r * n + c in inside

    d = inset
    pieces: list[tuple[Point, Point]] = []  # clockwise: the cage on the right of each piece
    for cell in cells:
        r, c = divmod(cell, n)
        if not has(r - 1, c):  # top side, left to right
            a = c + d if not has(r, c - 1) else (c - d if has(r - 1, c - 1) else c)
            b = c + 1 - d if not has(r, c + 1) else (c + 1 + d if has(r - 1, c + 1) else c + 1)
            pieces.append(((a, r + d), (b, r + d)))
        if not has(r, c + 1):  # right side, top to bottom
            a = r + d if not has(r - 1, c) else (r - d if has(r - 1, c + 1) else r)
            b = r + 1 - d if not has(r + 1, c) else (r + 1 + d if has(r + 1, c + 1) else r + 1)
            pieces.append(((c + 1 - d, a), (c + 1 - d, b)))
        if not has(r + 1, c):  # bottom side, right to left
            a = c + 1 - d if not has(r, c + 1) else (c + 1 + d if has(r + 1, c + 1) else c + 1)
            b = c + d if not has(r, c - 1) else (c - d if has(r + 1, c - 1) else c)
            pieces.append(((a, r + 1 - d), (b, r + 1 - d)))
        if not has(r, c - 1):  # left side, bottom to top
            a = r + 1 - d if not has(r + 1, c) else (r + 1 + d if has(r + 1, c - 1) else r + 1)
            b = r + d if not has(r - 1, c) else (r - d if has(r - 1, c - 1) else r)
            pieces.append(((c + d, a), (c + d, b)))

    def key(p: Point) -> tuple[int, int]:
        return round(p[0] * 1000), round(p[1] * 1000)

    starts = {key(a): (a, b) for a, b in pieces}
    loops: list[tuple[Point, ...]] = []
    while starts:
        first = min(starts, key=lambda k: (k[1], k[0]))
        corners: list[Point] = []
        at = first
        while at in starts:
            start, end = starts.pop(at)
            corners.append(start)
            at = key(end)
        # Keep the corners where the path turns: drop points inside straight runs.
        m = len(corners)
        loops.append(
            tuple(
                (round(p[0], 4), round(p[1], 4))
                for i, p in enumerate(corners)
                if not (
                    corners[i - 1][0] == p[0] == corners[(i + 1) % m][0]
                    or corners[i - 1][1] == p[1] == corners[(i + 1) % m][1]
                )
            )
        )
    return tuple(loops)


def wrap(text: str, limit: int) -> list[str]:
    """``text`` in lines of at most ``limit`` characters, broken between words (a longer word
    stands alone); each sentence starts a line.

    >>> wrap("Sudoku-X: each diagonal also holds 1-9. Anti-king: no.", 30)
    ['Sudoku-X: each diagonal also', 'holds 1-9.', 'Anti-king: no.']
    """
    lines: list[str] = []
    for sentence in text.replace(". ", ".\n").splitlines():
        line = ""
        for word in sentence.split():
            if line and len(line) + 1 + len(word) > limit:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        if line:
            lines.append(line)
    return lines
