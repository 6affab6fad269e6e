"""Puzzles under rules for the logic engine's tests, made from the exact engine.

Until the generator takes rules, a test puzzle is a random complete grid under the rules with
clues removed in a random order while the puzzle stays unique (:func:`dig`). With ``within``,
a clue also stays unless the puzzle is still solved by those techniques alone: puzzles that
need only what they name (the SukakuExplainer comparison uses such puzzles).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from sudokit import Grid, Rules, Shape, is_unique, random_grid
from sudokit.logic import PathEnd, Technique, run_path

JIGSAW9 = "111222333111222333114522333144552666444555666444555966777888996777888999777888999"
JIGSAW6 = "AAABBBCAAABBCCDDBECCDDEECDDFEEFFFFFE"
SUDOKU = Shape(3, 3)


def dig(
    rules: Rules | str,
    seed: int,
    shape: Shape = SUDOKU,
    within: Sequence[Technique] | None = None,
) -> Grid:
    """A unique puzzle under ``rules`` from the random grid of ``seed`` (see the module)."""
    kept = Rules.parse(rules) if isinstance(rules, str) else rules
    cells = bytearray(random_grid(shape, rules=kept, seed=seed).cells)
    order = list(range(shape.size))
    random.Random(seed).shuffle(order)
    for c in order:
        digit = cells[c]
        cells[c] = 0
        grid = Grid.from_cells(bytes(cells), shape, rules=kept)
        if not is_unique(grid) or (
            within is not None and run_path(grid, techniques=within)[0] is not PathEnd.SOLVED
        ):
            cells[c] = digit
    return Grid.from_cells(bytes(cells), shape, rules=kept)
