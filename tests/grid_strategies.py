"""Random valid grids for the grid and format tests, built without the engine.

A complete grid of any shape comes from the pattern ``(box_cols * (r % box_rows) + r //
box_rows + c) % n + 1`` (valid by construction), shuffled by validity-preserving moves:
relabel digits, permute rows within a band and bands, columns within a stack and stacks.
Puzzles keep a random subset of its cells, so they never hold a conflict.
"""

from __future__ import annotations

import random

from hypothesis import strategies as st

from sudokit._grid import Grid
from sudokit._shape import Shape

#: The shapes every property is checked on (box rows x box columns).
SHAPES = [
    Shape(2, 2),
    Shape(2, 3),
    Shape(3, 2),
    Shape(2, 4),
    Shape(3, 3),
    Shape(3, 4),
    Shape(4, 3),
    Shape(4, 4),
    Shape(4, 5),
    Shape(5, 5),
    Shape(5, 6),
    Shape(6, 6),
]


def solution_cells(shape: Shape, rng: random.Random) -> bytes:
    """A random complete valid grid of ``shape`` as cell values."""
    n, br, bc = shape.n, shape.box_rows, shape.box_cols
    labels = list(range(1, n + 1))
    rng.shuffle(labels)

    def order(group: int, count: int) -> list[int]:
        """Lines in a random order that keeps each group of ``group`` lines together."""
        blocks = list(range(count))
        rng.shuffle(blocks)
        out: list[int] = []
        for b in blocks:
            inner = list(range(group))
            rng.shuffle(inner)
            out.extend(b * group + i for i in inner)
        return out

    rows = order(br, n // br)
    cols = order(bc, n // bc)
    return bytes(labels[(bc * (r % br) + r // br + c) % n] for r in rows for c in cols)


def puzzle_cells(shape: Shape, rng: random.Random, keep: float) -> bytes:
    """A random conflict-free grid: each cell of a solution kept with probability ``keep``."""
    return bytes(d if rng.random() < keep else 0 for d in solution_cells(shape, rng))


@st.composite
def grids(draw: st.DrawFn, shapes: list[Shape] | None = None) -> Grid:
    """A random conflict-free grid of one of ``shapes`` (default: all of :data:`SHAPES`)."""
    shape = draw(st.sampled_from(shapes or SHAPES))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    keep = draw(st.sampled_from([0.0, 0.2, 0.5, 0.9, 1.0]))
    return Grid.from_cells(puzzle_cells(shape, rng, keep), shape)


@st.composite
def candidate_masks(draw: st.DrawFn, shapes: list[Shape] | None = None) -> tuple[Shape, list[int]]:
    """A shape and one random candidate mask per cell (any subset of digits, empty included)."""
    shape = draw(st.sampled_from(shapes or SHAPES))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    full = (1 << shape.n) - 1
    style = draw(st.sampled_from(["any", "sparse", "singles"]))
    masks = []
    for _ in range(shape.size):
        if style == "any":
            masks.append(rng.randint(0, full))
        elif style == "sparse":
            masks.append(rng.getrandbits(shape.n) & rng.getrandbits(shape.n) & full)
        else:
            masks.append(1 << rng.randrange(shape.n))
    return shape, masks
