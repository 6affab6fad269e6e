"""A rule set stated in words: the one line a picture, a book page or another tool's puzzle
file shows beside the grid, so a solver knows what the drawing means.

>>> from sudokit.rules import Rules
>>> rules_statement(Rules("x+antiknight"), 9)
"Sudoku-X: each diagonal also holds 1-9. Anti-knight: cells a knight's move apart differ."
>>> rules_statement(Rules("classic"), 9)
''
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..rules import Rules

__all__ = ["rules_statement"]


def rules_statement(rules: Rules, n: int) -> str:
    """What ``rules`` add to a classic side-``n`` grid, in one line of sentences (the empty
    string for classic rules, which need no statement). The shaded windows and tinted groups
    it mentions are what :mod:`sudokit.render` draws."""
    digits = f"1-{n}"
    parts = []
    if rules.regions is not None:
        parts.append(f"Jigsaw: each outlined region holds {digits} (it replaces the boxes).")
    if rules.cages is not None:
        parts.append("Killer: the digits of each dotted cage differ and add up to its sum.")
    for name in rules.extras:
        parts.append(
            {
                "x": f"Sudoku-X: each diagonal also holds {digits}.",
                "windoku": f"Windoku: each shaded window also holds {digits}.",
                "dg": (f"Disjoint groups: the cells at the same place in every box hold {digits}."),
                "antiknight": "Anti-knight: cells a knight's move apart differ.",
                "antiking": "Anti-king: diagonally touching cells differ.",
                "nc": "Non-consecutive: side-touching cells never hold consecutive digits.",
            }[name]
        )
    return " ".join(parts)
