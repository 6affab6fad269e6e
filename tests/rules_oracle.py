"""A pure-Python reference for rules (the oracle the C engine is checked against).

Plain backtracking over peers and the relation, fewest candidates first: slow, short and
obviously right. It reads only a cell's peers (and, for nc, its related cells), so a test may
hand it any subset of a geometry's houses (see test_rules.py's implied windows test).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from sudokit.rules import Geometry

Peers = Sequence[Sequence[int]]


def peers_of(houses: Sequence[Sequence[int]], size: int, extra: Peers = ()) -> list[list[int]]:
    """Each cell's peers from a list of houses (and extra neighbour cells per cell)."""
    out: list[set[int]] = [set() for _ in range(size)]
    for house in houses:
        for c in house:
            out[c].update(house)
    for c, more in enumerate(extra):
        out[c].update(more)
    return [sorted(s - {c}) for c, s in enumerate(out)]


def breaks(peers: Peers, related: Peers, cells: Sequence[int]) -> str | None:
    """Why the digits ``cells`` (0 = empty) break the rules, or None when they do not."""
    for c, v in enumerate(cells):
        if not v:
            continue
        for p in peers[c]:
            if cells[p] == v:
                return f"cells {c} and {p} both hold {v}"
        for q in related[c]:
            if cells[q] and abs(cells[q] - v) == 1:
                return f"cells {c} and {q} hold consecutive {v} and {cells[q]}"
    return None


def search(
    peers: Peers,
    related: Peers,
    n: int,
    cells: Sequence[int],
    limit: int,
    rng: random.Random | None = None,
) -> tuple[int, list[int] | None]:
    """Count solutions of ``cells`` up to ``limit``; return (count, the first solution).

    With ``rng`` the digits are tried in random order (for random complete grids)."""
    size = len(cells)
    full = (1 << n) - 1
    if breaks(peers, related, cells):
        return 0, None
    grid = list(cells)
    cand = [full] * size
    for c, v in enumerate(grid):
        if v:
            cand[c] = 1 << (v - 1)
    for c, v in enumerate(grid):
        if v:
            bit = 1 << (v - 1)
            for p in peers[c]:
                if not grid[p]:
                    cand[p] &= ~bit
            near = (bit << 1 | bit >> 1) & full
            for q in related[c]:
                if not grid[q]:
                    cand[q] &= ~near
    found: list[list[int]] = []
    count = 0

    def go() -> bool:
        nonlocal count
        best, best_k = -1, n + 1
        for c in range(size):
            if not grid[c]:
                k = cand[c].bit_count()
                if k < best_k:
                    best, best_k = c, k
                    if k <= 1:
                        break
        if best < 0:
            count += 1
            if not found:
                found.append(list(grid))
            return count >= limit
        if best_k == 0:
            return False
        digits = [d for d in range(1, n + 1) if cand[best] >> (d - 1) & 1]
        if rng is not None:
            rng.shuffle(digits)
        for d in digits:
            bit = 1 << (d - 1)
            near = (bit << 1 | bit >> 1) & full
            undo: list[tuple[int, int]] = []
            grid[best] = d
            for p in peers[best]:
                if not grid[p] and cand[p] & bit:
                    undo.append((p, cand[p]))
                    cand[p] &= ~bit
            for q in related[best]:
                if not grid[q] and cand[q] & near:
                    undo.append((q, cand[q]))
                    cand[q] &= ~near
            stop = go()
            for p, m in reversed(undo):
                cand[p] = m
            grid[best] = 0
            if stop:
                return True
        return False

    go()
    return count, (found[0] if found else None)


def solve(geo: Geometry, cells: Sequence[int], limit: int = 2) -> tuple[int, list[int] | None]:
    """:func:`search` over a geometry's peers and relation."""
    return search(geo.peers, geo.related, geo.n, cells, limit)


def random_solution(geo: Geometry, rng: random.Random) -> list[int] | None:
    """A random complete grid for the geometry, or None when it has none."""
    return search(geo.peers, geo.related, geo.n, [0] * geo.size, 1, rng)[1]
