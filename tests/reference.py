"""A pure-Python reference solver: the oracle the C engine is tested against.

Deliberately plain and independent of the engine (no bitboards, no hidden singles, no shared
code beyond the shape's geometry): candidates are Python sets, propagation is naked singles
only, and the search branches on a cell with the fewest candidates. It is slow but easy to
check by reading.
"""

from __future__ import annotations

from collections.abc import Sequence

from sudokit import Shape


def _peers(shape: Shape) -> list[list[int]]:
    n, br, bc = shape.n, shape.box_rows, shape.box_cols
    out = []
    for cell in range(n * n):
        r, c = divmod(cell, n)
        out.append(
            [
                o
                for o in range(n * n)
                if o != cell
                and (
                    o // n == r
                    or o % n == c
                    or ((o // n) // br == r // br and (o % n) // bc == c // bc)
                )
            ]
        )
    return out


def count_solutions(
    shape: Shape, cells: Sequence[int], limit: int = 2
) -> tuple[int, list[int] | None]:
    """Return (number of solutions up to ``limit``, the first solution found or None)."""
    n = shape.n
    peers = _peers(shape)
    cand: list[set[int]] = [set(range(1, n + 1)) for _ in range(n * n)]
    for cell, v in enumerate(cells):
        if v:
            if v not in cand[cell]:
                return 0, None
            cand[cell] = {v}
            for p in peers[cell]:
                cand[p].discard(v)
    if any(not c for c in cand):
        return 0, None
    found: list[list[int]] = []

    def propagate(cs: list[set[int]]) -> bool:
        changed = True
        while changed:
            changed = False
            for cell in range(n * n):
                if len(cs[cell]) == 1:
                    (v,) = cs[cell]
                    for p in peers[cell]:
                        if v in cs[p]:
                            if len(cs[p]) == 1:
                                return False
                            cs[p].discard(v)
                            changed = True
                elif not cs[cell]:
                    return False
        return True

    def search(cs: list[set[int]]) -> bool:
        if not propagate(cs):
            return False
        open_cells = [c for c in range(n * n) if len(cs[c]) > 1]
        if not open_cells:
            found.append([next(iter(s)) for s in cs])
            return len(found) >= limit
        cell = min(open_cells, key=lambda c: len(cs[c]))
        for v in sorted(cs[cell]):
            nxt = [set(s) for s in cs]
            nxt[cell] = {v}
            if search(nxt):
                return True
        return False

    search(cand)
    return len(found), (found[0] if found else None)


def is_valid_solution(shape: Shape, solution: Sequence[int], puzzle: Sequence[int]) -> bool:
    """A complete grid with every unit a permutation of 1..n that keeps every clue."""
    n = shape.n
    if len(solution) != n * n or any(p and p != s for p, s in zip(puzzle, solution, strict=True)):
        return False
    full = set(range(1, n + 1))
    return all({solution[c] for c in unit} == full for unit in shape.units)
