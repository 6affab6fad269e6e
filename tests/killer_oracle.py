"""A plain killer solver, the tests' oracle: houses (rows, columns, boxes) and cages given as
(cells, sum) pairs, searched cell by cell with the fewest candidates first. A cage's digits
differ, and a digit is a candidate only while the cage's other cells can still make up the
rest of its sum from digits left to them. Written without sudokit's code (its own digit
sets), so that it checks that code rather than repeats it."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

Cage = tuple[Sequence[int], int]


def houses(box_rows: int, box_cols: int) -> list[list[int]]:
    n = box_rows * box_cols
    rows = [[r * n + c for c in range(n)] for r in range(n)]
    cols = [[r * n + c for r in range(n)] for c in range(n)]
    boxes = [
        [
            (br * box_rows + i) * n + bc * box_cols + j
            for i in range(box_rows)
            for j in range(box_cols)
        ]
        for br in range(box_cols)
        for bc in range(box_rows)
    ]
    return rows + cols + boxes


def _can_make(total: int, k: int, allowed: set[int]) -> bool:
    """Whether ``k`` different digits of ``allowed`` add up to ``total``."""
    return any(sum(c) == total for c in combinations(sorted(allowed), k))


def count(
    box_rows: int,
    box_cols: int,
    cages: Sequence[Cage],
    givens: Sequence[int] | None = None,
    limit: int = 2,
) -> tuple[int, list[int] | None]:
    """The number of solutions (up to ``limit``) and the first one found."""
    n = box_rows * box_cols
    size = n * n
    grid = list(givens) if givens is not None else [0] * size
    peers: list[set[int]] = [set() for _ in range(size)]
    for house in houses(box_rows, box_cols):
        for a in house:
            peers[a].update(house)
    for cell in range(size):
        peers[cell].discard(cell)
    cage_of: list[int | None] = [None] * size
    for i, (cells, _) in enumerate(cages):
        for cell in cells:
            cage_of[cell] = i
    digits = set(range(1, n + 1))

    def fits(cell: int, d: int) -> bool:
        if any(grid[p] == d for p in peers[cell]):
            return False
        i = cage_of[cell]
        if i is None:
            return True
        cells, total = cages[i]
        placed = [grid[c] for c in cells if grid[c] and c != cell]
        if d in placed:
            return False
        left = [c for c in cells if not grid[c] and c != cell]
        rest = total - sum(placed) - d
        return _can_make(rest, len(left), digits - set(placed) - {d})

    for cell in range(size):  # givens must fit what is around them
        if grid[cell]:
            d, grid[cell] = grid[cell], 0
            if not fits(cell, d):
                return 0, None
            grid[cell] = d
    found: list[list[int]] = []
    total = 0

    def go() -> bool:
        nonlocal total
        best, best_cands = -1, list(digits)
        for cell in range(size):
            if grid[cell]:
                continue
            cands = [d for d in range(1, n + 1) if fits(cell, d)]
            if len(cands) < len(best_cands) or best < 0:
                best, best_cands = cell, cands
                if len(cands) <= 1:
                    break
        if best < 0:
            total += 1
            if not found:
                found.append(list(grid))
            return total >= limit
        for d in best_cands:
            grid[best] = d
            if go():
                grid[best] = 0
                return True
        grid[best] = 0
        return False

    go()
    return total, (found[0] if found else None)


def random_layout(solution: bytes, n: int, rng: random.Random, most: int) -> list[list[int]]:
    """Cells cut into connected cages of 1..most cells, each grown from a free cell into
    cells whose digits (in ``solution``) it does not hold yet."""
    free = set(range(n * n))
    cages = []
    while free:
        start = min(free) if rng.random() < 0.5 else rng.choice(sorted(free))
        cage = [start]
        free.discard(start)
        want = rng.randint(1, most)
        while len(cage) < want:
            edge = sorted(
                o
                for c in cage
                for o in (c - n, c + n, c - 1 if c % n else -1, c + 1 if (c + 1) % n else -1)
                if o in free and solution[o] not in {solution[x] for x in cage}
            )
            if not edge:
                break
            pick = rng.choice(edge)
            cage.append(pick)
            free.discard(pick)
        cages.append(cage)
    return cages


def innies(house_list: Sequence[Sequence[int]], cages: Sequence[Cage], n: int) -> list[Cage]:
    """The sums the rule of 45 gives, house by house: the cells of a house outside the cages
    that lie wholly in it, with the house's total less those cages' sums (houses in which no
    cage lies wholly, or with no cell left, give none)."""
    full = n * (n + 1) // 2
    found: list[Cage] = []
    for house in house_list:
        inside = set(house)
        whole = [(cells, total) for cells, total in cages if inside.issuperset(cells)]
        rest = inside.difference(*(cells for cells, _ in whole))
        if whole and rest:
            found.append((sorted(rest), full - sum(total for _, total in whole)))
    return found
