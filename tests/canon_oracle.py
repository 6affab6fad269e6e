"""A slow, obviously right canonical form for the tests: enumerate the whole Sudoku group.

Written from the definition alone (it never calls sudokit's C code): every transposition (only
for square boxes), band order, row order inside each band, stack order and column order inside
each stack; each image relabelled in order of first appearance; the smallest text wins, and
the automorphisms are the group elements that reach it (geometric maps reaching it, times the
orders of the unused digits). Practical for 4x4 and 6x6 grids only.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from itertools import permutations, product


def line_orders(boxes: int, per_box: int) -> Iterator[tuple[int, ...]]:
    """Every order of ``boxes`` blocks of ``per_box`` lines that keeps blocks together."""
    inner = list(permutations(range(per_box)))
    for outer in permutations(range(boxes)):
        for ins in product(inner, repeat=boxes):
            yield tuple(b * per_box + i for k, b in enumerate(outer) for i in ins[k])


def relabel(text: list[int]) -> tuple[tuple[int, ...], dict[int, int]]:
    """Relabel in order of first appearance: the smallest text of this geometry."""
    labels: dict[int, int] = {}
    out = []
    for d in text:
        if d and d not in labels:
            labels[d] = len(labels) + 1
        out.append(labels[d] if d else 0)
    return tuple(out), labels


def oracle(box_rows: int, box_cols: int, cells: bytes) -> tuple[tuple[int, ...], int]:
    """(canonical text, automorphism count) by brute force."""
    n = box_rows * box_cols
    grids = [[list(cells[r * n : r * n + n]) for r in range(n)]]
    if box_rows == box_cols:
        grids.append([[cells[c * n + r] for c in range(n)] for r in range(n)])
    rows = list(line_orders(box_cols, box_rows))  # box_cols bands of box_rows rows
    cols = list(line_orders(box_rows, box_cols))  # box_rows stacks of box_cols columns
    best: tuple[int, ...] | None = None
    hits = 0
    for g in grids:
        for ro in rows:
            permuted = [g[r] for r in ro]
            for co in cols:
                text, _ = relabel([row[c] for row in permuted for c in co])
                if best is None or text < best:
                    best, hits = text, 1
                elif text == best:
                    hits += 1
    assert best is not None
    unused = n - len({d for d in cells if d})
    return best, hits * math.factorial(unused)
