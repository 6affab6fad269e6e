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
- The **statement**: the rules in words (:func:`sudokit.formats.statement.rules_statement`),
  set under the grid; the neighbour rules and non-consecutive are stated only.

>>> from sudokit import Shape
>>> from sudokit.rules import Rules
>>> m = rule_marks(Shape(3, 3), Rules("x+windoku"))
>>> m.diagonals, m.windows[0], len(m.borders)
(True, (1, 1, 3), 36)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .._shape import Shape
from ..formats.statement import rules_statement
from ..rules import Rules, geometry, refuse_cages

__all__ = ["GROUP_TINTS", "WINDOW_TINT", "RuleMarks", "rule_marks", "wrap"]

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


@dataclass(frozen=True, slots=True)
class RuleMarks:
    """What to draw for one (shape, rules): see the module notes."""

    borders: tuple[tuple[str, int, int], ...]
    diagonals: bool
    windows: tuple[tuple[int, int, int], ...]
    groups: tuple[int, ...] | None
    statement: str


@lru_cache(maxsize=256)
def rule_marks(shape: Shape, rules: Rules) -> RuleMarks:
    """The marks of ``rules`` on ``shape`` (InvalidRulesError if they do not fit it)."""
    refuse_cages(rules, "drawing")
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
    )


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
